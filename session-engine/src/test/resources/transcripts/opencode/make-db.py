"""Writes an opencode-shaped database with Python's own sqlite3, the oracle of SqliteReadTest.

usage: make-db.py DB MEGABYTES SESSIONS [wal]

The session, message and part tables as opencode 1.18.33 creates them (columns trimmed to what the
reader needs, plus a table with an INTEGER PRIMARY KEY). Each session gets a prompt, an answer and a
tool output of 47 KB (over a page: overflow pages); the tables grow past one page (interior pages)
until the file holds MEGABYTES. With "wal", the last session is written in WAL mode and left in the
log (the connection is not checkpointed). Prints the expected turns of the last session as JSON.
"""
import json, os, sqlite3, sys

db, megabytes, sessions = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
wal = len(sys.argv) > 4 and sys.argv[4] == "wal"
if os.path.exists(db):
    os.remove(db)
con = sqlite3.connect(db, isolation_level=None)
con.executescript("""
CREATE TABLE `session` (
  `id` text PRIMARY KEY,
  `parent_id` text,
  `directory` text NOT NULL,
  `version` text NOT NULL,
  `time_created` integer NOT NULL,
  `time_updated` integer NOT NULL
);
CREATE TABLE `message` (
  `id` text PRIMARY KEY,
  `session_id` text NOT NULL,
  `time_created` integer NOT NULL,
  `data` text NOT NULL
);
CREATE TABLE `part` (
  `id` text PRIMARY KEY,
  `message_id` text NOT NULL,
  `session_id` text NOT NULL,
  `data` text NOT NULL
);
CREATE TABLE `counter` (
  `id` INTEGER PRIMARY KEY,
  `label` text,
  `value` integer
);
""")
for i in (1, 2, 300, 70000, 2**40):
    con.execute("INSERT INTO counter VALUES (?, ?, ?)", (i, "n%d" % i, -3 * i))

output = "".join("line %06d of a long tool output\n" % n for n in range(1400))  # 47 KB
per_session = len(output) + 600


def session(n, con):
    sid = "ses_%06d" % n
    t = 1_700_000_000_000 + n * 1000
    con.execute("INSERT INTO session VALUES (?, NULL, '/home/dev/project', '1.18.33', ?, ?)",
                (sid, t, t + 500))
    for m, (role, text) in enumerate((("user", "question %d" % n), ("assistant", "answer %d" % n))):
        mid = "msg_%06d_%d" % (n, m)
        con.execute("INSERT INTO message VALUES (?, ?, ?, ?)",
                    (mid, sid, t + m, json.dumps({"role": role, "tokens": {"input": 1}})))
        con.execute("INSERT INTO part VALUES (?, ?, ?, ?)",
                    ("prt_%06d_%d_a" % (n, m), mid, sid, json.dumps({"type": "text", "text": text})))
        if role == "assistant":
            con.execute("INSERT INTO part VALUES (?, ?, ?, ?)",
                        ("prt_%06d_%d_b" % (n, m), mid, sid,
                         json.dumps({"type": "tool", "state": {"output": output}})))
    return sid


count = max(sessions, megabytes * 1_000_000 // per_session)
con.execute("BEGIN")
for n in range(count - 1):
    session(n, con)
con.execute("COMMIT")
if wal:
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA wal_autocheckpoint=0")
last = session(count - 1, con)
print(json.dumps({"session": last, "sessions": count,
                  "turns": [["user", "question %d" % (count - 1)],
                            ["assistant", "answer %d" % (count - 1)]]}))
sys.stdout.flush()
if wal:
    os._exit(0)  # leaves the last session in the log, as a running opencode does
con.close()
