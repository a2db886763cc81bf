"""The host tooling's package: the configuration (config), the kernel a
run works on (kernel), where everything it builds and writes lives
(layout), the series file (series), and the command line that the
Makefile and the shell scripts call (cli, run as scripts/ts)."""
