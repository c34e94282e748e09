"use strict";
// The page's token (see tajmahal/arena/websession.py): taken from the address's
// fragment (#token=..., which no browser sends to a server), kept in this tab's
// sessionStorage (apart for each origin: scheme, host and port), taken out of
// the address bar, and sent with each request as "Authorization: Bearer ...".
// Never a cookie: cookies are not bound to ports.
const session = (() => {
  const key = "tajmahal-token";
  const given = new URLSearchParams(location.hash.slice(1)).get("token");
  if (given) {
    sessionStorage.setItem(key, given);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem(key);
})();

// fetch() with the token; refused (403, its text) without one.
function api(path, init = {}) {
  const headers = new Headers(init.headers || {});
  if (session) headers.set("Authorization", `Bearer ${session}`);
  return fetch(path, {...init, headers, credentials: "omit"});
}
