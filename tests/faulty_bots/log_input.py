"""Not broken: plays choice 0 and copies every line it reads to its log (stderr),
so that a test can see exactly what reached the bot, and in which order."""

import json
import sys

for line in sys.stdin:
    sys.stderr.write(line)
    message = json.loads(line)
    if message["type"] == "hello":
        answer = {"type": "hello", "name": "log_input", "version": "0", "protocol_version": 1}
    elif message["type"] == "act":
        answer = {"type": "action", "choice": 0}
    else:
        continue
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
sys.stderr.flush()
