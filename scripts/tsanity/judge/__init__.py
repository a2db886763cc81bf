"""The judges of the tooling's runs, one module per concern: what fails
one guest boot of `scripts/ts boot` (boot: pure, from the boot's inputs),
and how `scripts/ts judge-boot` gathers those inputs and says the verdict
(boot_run)."""
