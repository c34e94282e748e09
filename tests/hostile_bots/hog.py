"""A bot that holds argv[1] megabytes at its first decision (a leak, or a bid to
starve the machine), then plays on."""

import json
import sys

held = []
acts = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "hog", "version": "0",
                          "protocol_version": 1}), flush=True)
    elif message["type"] == "act":
        acts += 1
        if acts == 1:
            held.append(bytearray(int(sys.argv[1]) << 20))
        print(json.dumps({"type": "action", "choice": 0}), flush=True)
