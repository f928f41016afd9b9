# Variables shared by the RTL rules (mk/sim.mk, mk/lint.mk, mk/synth.mk,
# mk/levels.mk), each defined once. Included by the top Makefile, which
# defines GO. Everything is built under $(RTL_BUILD) (sim/.gitignore).

RTL_BUILD ?= sim/build
VERILATOR ?= verilator
IVERILOG  ?= iverilog
YOSYS     ?= yosys
NEXTPNR   ?= nextpnr-ice40
SIM_CXX   ?= g++
AR        ?= ar

RTL_SRCS   := $(sort $(wildcard rtl/*.v))
# Verilog includes (rtl/mpa_rx_fields.vh): every rule that reads RTL depends
# on them and passes the include path.
RTL_INCS   := $(sort $(wildcard rtl/*.vh))
SYNTH_SRCS := $(sort $(wildcard scripts/synth/*.v))
# Yosys's command to read Verilog sources, with the include path.
YOSYS_READ := read_verilog -Irtl

# The sources of the FPDU walker mpa_rx_walk: its parts, the delay line, the
# FIFO of its record banks and the CRC engine.
WALK_SRCS := rtl/mpa_rx_walk.v $(sort $(wildcard rtl/mpa_rx_walk_*.v)) rtl/mpa_rx_delay.v \
	rtl/mpa_rx_fifo.v rtl/crc32c.v
# The sources of the whole receiver mpa_rx (co-simulation, synthesis).
MPA_RX_SRCS := rtl/mpa_rx.v rtl/mpa_rx_ingress.v rtl/mpa_rx_parse.v rtl/mpa_rx_ctx.v rtl/mpa_rx_feed.v \
	$(WALK_SRCS) rtl/mpa_rx_frame.v rtl/mpa_rx_verdict.v rtl/mpa_rx_ddp.v rtl/mpa_rx_place.v

# The integration top mpa_rx_axi_top: its AXI blocks and the receiver.
AXI_SRCS := rtl/mpa_rx_axi_top.v rtl/mpa_rx_axi_gate.v rtl/mpa_rx_axi_wr.v rtl/mpa_rx_axil_regs.v
AXI_TOP_SRCS := $(AXI_SRCS) $(MPA_RX_SRCS)

# $(call block_srcs,BLOCK): the sources a block's synthesis reads:
# BLOCK_SRCS_<block> when set, else the receiver's.
BLOCK_SRCS_mpa_rx_axi_wr    := rtl/mpa_rx_axi_wr.v
BLOCK_SRCS_mpa_rx_axil_regs := rtl/mpa_rx_axil_regs.v
BLOCK_SRCS_mpa_rx_axi_gate  := rtl/mpa_rx_axi_gate.v rtl/mpa_rx_fifo.v
BLOCK_SRCS_mpa_rx_axi_top   := $(AXI_TOP_SRCS)
block_srcs = $(if $(BLOCK_SRCS_$(1)),$(BLOCK_SRCS_$(1)),$(MPA_RX_SRCS))

.PHONY: rtl-force
rtl-force:

# $(call mpa_rx_chparam,PARAMS): Yosys chparam arguments from NAME=VALUE words
mpa_rx_chparam = $(foreach p,$(1),-set $(subst =, ,$(p)))
