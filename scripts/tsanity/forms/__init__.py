"""The table of the timeouts Linux takes in another form than a timespec
(scripts/forms_table.py is its command line): its shape and check
(schema), its entries (core, drivers), the table they make (table) and
its RST form for the Documentation page (rst)."""
