# Read after a Verilator model's own makefile (mk/sim.mk passes it as a
# second -f): the model's trace functions, which run only while a waveform
# is dumped, are compiled at -O1 instead of OPT_FAST. Measured on the
# 512-bit mpa_rx: its Vmpa_rx_w512__Trace__0.cpp (1.4 MB) takes more than
# 135 s of CPU at -O3, 43 s at -O1, 14 s at -O0; it was the longest single
# compile of every mpa_rx variant. The whole C++ of mpa_rx_w512 from
# scratch (2 cores, load about 6): 220 s wall / 145 s CPU with the trace at
# -O3, 82 s / 76 s with it at -O1 (Verilator itself about 6 s).
TRACE_FAST_OBJS := $(addsuffix .o,$(foreach c,$(VM_FAST),$(if $(findstring __Trace__,$(c)),$(c))))
$(TRACE_FAST_OBJS): override OPT_FAST := -O1
