"""Prints each row of a table as Python's own sqlite3 reads it, in rowid order: each column's
SHA-256 (of its UTF-8 text, or its number as Java prints it), tab-separated: the oracle of
SqliteSnapshotTest. usage: read-table.py DB TABLE"""
import hashlib, sqlite3, sys

con = sqlite3.connect(sys.argv[1])
for row in con.execute("SELECT * FROM `%s` ORDER BY rowid" % sys.argv[2]):
    cells = []
    for value in row:
        text = "null" if value is None else str(value)
        cells.append(hashlib.sha256(text.encode("utf-8")).hexdigest())
    print("\t".join(cells))
