"""Attack 4: children that escape the bot's process group.  argv[1] says how,
argv[2] is a marker put on every child's command line (so a test can look for
them); the bot itself then plays correctly and exits at the end.

- ``setsid``: a child calls ``os.setsid()`` (a session of its own);
- ``setsid_cmd``: runs ``setsid sleep ...`` (the command-line tool);
- ``setpgrp``: a child calls ``os.setpgrp()`` (a group of its own);
- ``daemon``: a double-fork daemon in a new session that keeps the bot's stderr
  open (the referee's stderr reader must not wait for it);
- ``runaway``: a chain of processes, each forking the next then exiting at once,
  without end (each is an orphan a moment after it is born: the hardest tree
  to catch by walking it);
- ``all``: each of the above but the chain.

With argv[3] ``busy`` the children spin on the CPU instead of sleeping (to measure
what escaped children cost the games after them).
"""

import os
import subprocess
import sys
import time

from arena_bot import run

mode, marker = sys.argv[1], sys.argv[2]
work = "while True: pass" if sys.argv[3:] == ["busy"] else "import time; time.sleep(3600)"
SLEEP = [sys.executable, "-c", work, marker]


def spawn(how: str) -> None:
    if how == "setsid":
        subprocess.Popen(SLEEP, start_new_session=True, stderr=subprocess.DEVNULL)
    elif how == "setsid_cmd":
        subprocess.Popen(["setsid", *SLEEP], stderr=subprocess.DEVNULL)
    elif how == "setpgrp":
        subprocess.Popen(SLEEP, process_group=0, stderr=subprocess.DEVNULL)
    elif how == "daemon":
        if os.fork() == 0:  # the first child starts a session and forks the daemon
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, SLEEP)  # inherits stdout and stderr: holds them
            os._exit(0)
        os.wait()
    elif how == "runaway":
        if os.fork() == 0:
            os.setsid()
            end = time.monotonic() + 300  # a bound, should it ever escape
            while time.monotonic() < end and os.fork() == 0:
                pass  # the child forks on; its parent exits
            os._exit(0)
        os.wait()


for how in ("setsid", "setsid_cmd", "setpgrp", "daemon") if mode == "all" else (mode,):
    spawn(how)
run("escape")
