#!/usr/bin/env python3
"""A person's terminal without tmux: runs a command on a pseudo-terminal of its own, as a terminal
tab or an editor's terminal does. Usage: plain-terminal.py SCREEN_LOG COMMAND [ARG...].

Prints the command's pid, then writes what it reads on its own stdin to the terminal as keys (a
line feed as the Enter key, a carriage return); everything the command draws is appended to
SCREEN_LOG. At the end of its stdin the command is sent SIGHUP, as a closed terminal does; it exits
with the command.
"""
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios

log_path = sys.argv[1]
pid, terminal = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
print(pid, flush=True)
stdin = sys.stdin.fileno()
typing = True
with open(log_path, "ab", buffering=0) as log:
    while True:
        ready, _, _ = select.select([terminal] + ([stdin] if typing else []), [], [], 0.1)
        if terminal in ready:
            try:
                data = os.read(terminal, 65536)
            except OSError:
                break
            if not data:
                break
            log.write(data)
        if typing and stdin in ready:
            data = os.read(stdin, 65536)
            if data:
                os.write(terminal, data.replace(b"\n", b"\r"))
            else:
                typing = False
                os.kill(pid, signal.SIGHUP)
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            break
