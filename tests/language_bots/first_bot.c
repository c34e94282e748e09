/* A bot in C that plays the first legal action (tests: bots in C run in the
   sandbox, under its system call filter).  It reads one JSON line at a time and
   looks only at its "type": the referee writes compact JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is(const char *line, const char *type) {
    char key[64];
    snprintf(key, sizeof key, "\"type\":\"%s\"", type);
    return strstr(line, key) != NULL;
}

int main(void) {
    char *line = NULL;
    size_t size = 0;
    setvbuf(stdout, NULL, _IONBF, 0);
    while (getline(&line, &size, stdin) > 0) {
        if (is(line, "hello")) {
            printf("{\"type\":\"hello\",\"name\":\"first_bot.c\",\"version\":\"1\","
                   "\"protocol_version\":1}\n");
        } else if (is(line, "act")) {
            printf("{\"type\":\"action\",\"choice\":0}\n");
        }
    }
    free(line);
    return 0;
}
