# RTL, Verilator and synthesis rules (owned by the co-simulation work).
SIM_LIBS :=
.PHONY: lint-rtl clean-rtl
lint-rtl:
clean-rtl:
