"""The audit of the timeout paths (scripts/audit.py runs it): the
timespec findings and the timeout-taking syscalls (paths), the call graph
above them (callgraph), the other timeout forms (forms), what is written
(render), and spatch, git grep and the messages (tools)."""
