"""The submission that make mbox writes and checks (scripts/mbox.py runs
it): the patches as mails (patches), their senders and recipients
(people), the testing figures (figures), the cover letters (cover), the
man-page mboxes (man), the checks (checks), the steps in order (build),
and the messages and commands (tools)."""
