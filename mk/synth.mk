# Synthesis (docs/synth.md): Yosys synth_ice40 and synth_xilinx of each block
# alone for LUT and flip-flop counts, nextpnr-ice40 (HX8K, seed 1) of the block
# in its shell (scripts/synth/*_shell.v) for fmax. The baseline crc32c_ref is
# measured in the same run.
SYNTH_DIR    := $(RTL_BUILD)/synth
SYNTH_BLOCKS := crc32c crc32c_ref
SYNTH_WIDTHS := 64 128 256 512
NEXTPNR_FLAGS := --hx8k --package ct256 --pcf-allow-unconstrained --timing-allow-fail \
	--seed 1 --freq 200
SYNTH_SRC_crc32c     := rtl/crc32c.v
SYNTH_SRC_crc32c_ref := scripts/synth/crc32c_ref.v

# $(call synth_rules,BLOCK,WIDTH)
define synth_rules
SYNTH_OUTS += $(SYNTH_DIR)/$(1)_w$(2).ice40.txt $(SYNTH_DIR)/$(1)_w$(2).xilinx.txt \
	$(SYNTH_DIR)/$(1)_w$(2).pnr.txt

$(SYNTH_DIR)/$(1)_w$(2).ice40.txt: $(SYNTH_SRC_$(1)) $(RTL_INCS)
	@mkdir -p $$(@D)
	@echo "synth_ice40  $(1) DATA_WIDTH=$(2)"
	@TIMEFORMAT='yosys_seconds %R'; { time $(YOSYS) -q -l $$@.log -p "$(YOSYS_READ) $(SYNTH_SRC_$(1)); \
		chparam -set DATA_WIDTH $(2) $(1); synth_ice40 -top $(1); tee -q -o $$@.tmp stat" \
		>/dev/null; } 2> $$@.time
	@cat $$@.tmp $$@.time > $$@ && rm -f $$@.tmp $$@.time

$(SYNTH_DIR)/$(1)_w$(2).xilinx.txt: $(SYNTH_SRC_$(1)) $(RTL_INCS)
	@mkdir -p $$(@D)
	@echo "synth_xilinx $(1) DATA_WIDTH=$(2)"
	@$(YOSYS) -q -l $$@.log -p "$(YOSYS_READ) $(SYNTH_SRC_$(1)); \
		chparam -set DATA_WIDTH $(2) $(1); synth_xilinx -top $(1); tee -q -o $$@.tmp stat" >/dev/null
	@mv $$@.tmp $$@

$(SYNTH_DIR)/$(1)_w$(2).shell.json: $(SYNTH_SRC_$(1)) $(RTL_INCS) scripts/synth/$(1)_shell.v
	@mkdir -p $$(@D)
	@echo "synth_ice40  $(1)_shell DATA_WIDTH=$(2)"
	@$(YOSYS) -q -l $$@.log -p "$(YOSYS_READ) $(SYNTH_SRC_$(1)) scripts/synth/$(1)_shell.v; \
		chparam -set DATA_WIDTH $(2) $(1)_shell; synth_ice40 -top $(1)_shell -json $$@.tmp" >/dev/null
	@mv $$@.tmp $$@

$(SYNTH_DIR)/$(1)_w$(2).pnr.txt: $(SYNTH_DIR)/$(1)_w$(2).shell.json
	@echo "nextpnr-ice40 $(1) DATA_WIDTH=$(2)"
	@$(NEXTPNR) $(NEXTPNR_FLAGS) --json $$< > $$@.tmp 2>&1 || { tail -20 $$@.tmp; exit 1; }
	@mv $$@.tmp $$@
endef

SYNTH_OUTS :=
$(foreach b,$(SYNTH_BLOCKS),$(foreach w,$(SYNTH_WIDTHS),$(eval $(call synth_rules,$(b),$(w)))))

# `make synth`: the LUT-level table first (mk/levels.mk), then the crc32c
# table and the receiver's iCE40 and memory tables.
.PHONY: synth
synth: $(SYNTH_DIR)/levels.txt $(SYNTH_OUTS) $(SYNTH_DIR)/mpa_rx.txt
	@cat $(SYNTH_DIR)/levels.txt; echo
	@sh scripts/synth/report.sh $(SYNTH_DIR) "$(SYNTH_WIDTHS)"
	@echo; cat $(SYNTH_DIR)/mpa_rx.txt

# ---------------------------------------------------------------------------
# Synthesis of the whole receiver (docs/synth.md, "The whole receiver"),
# from the sources in MPA_RX_SRCS with the parameter sets below (NAME=VALUE
# words, set on mpa_rx with Yosys chparam; any mpa_rx parameter may be
# listed):
#   ice40: synth_ice40 of mpa_rx alone (LUT, FF, RAM); synth_ice40 of
#          mpa_rx_shell (scripts/synth), nextpnr-ice40 on the HX8K (fmax,
#          logic cells, RAMs), icepack of the routed design (bitstream);
#   xc7:   synth_xilinx of mpa_rx alone (hierarchical: synth_xilinx -flatten
#          runs out of memory at 512 bits), then the mapped netlist flattened
#          and ltp over its LUT cells only (LUT depth between registers,
#          carry chains and MUXF7/F8 cut paths), and over LUT, CARRY4 and
#          MUXF7/F8 cells (each counts one);
#   mem:   the memories as designed and those left after opt_clean (logic
#          whose outputs are unused is removed), with the ice40 parameters
#          at CONN_COUNT = each of MPA_RX_MEM_CONNS, and with the xc7 ones.
# A design that does not fit is a result, not a build error: the table says
# so and no bitstream is written. All of it, with the blocks below: about
# 20 minutes of CPU, 13 of them synth_xilinx at 512 bits.
MPA_RX_ICE40_PARAMS ?= DATA_WIDTH=64 CONN_COUNT=16 FIFO_DEPTH=512
MPA_RX_XC7_PARAMS   ?= DATA_WIDTH=512 CONN_COUNT=16 FIFO_DEPTH=64
MPA_RX_MEM_CONNS    ?= 16 1024
MPA_RX_DIR := $(SYNTH_DIR)/mpa_rx
MPA_RX_SHELL_WIDTH = $(patsubst DATA_WIDTH=%,%,$(filter DATA_WIDTH=%,$(MPA_RX_ICE40_PARAMS)))

$(MPA_RX_DIR)/%.params: rtl-force
	@mkdir -p $(@D)
	@echo '$(MPA_RX_SRCS) | $(MPA_RX_$(*)_PARAMS)' | cmp -s - $@ || \
		echo '$(MPA_RX_SRCS) | $(MPA_RX_$(*)_PARAMS)' > $@
MPA_RX_ice40_PARAMS = $(MPA_RX_ICE40_PARAMS)
MPA_RX_xc7_PARAMS = $(MPA_RX_XC7_PARAMS)
MPA_RX_mem_PARAMS = $(MPA_RX_ICE40_PARAMS) / $(MPA_RX_XC7_PARAMS) / $(MPA_RX_MEM_CONNS)

$(MPA_RX_DIR)/ice40.txt: $(MPA_RX_SRCS) $(RTL_INCS) $(MPA_RX_DIR)/ice40.params
	@echo "synth_ice40  mpa_rx $(MPA_RX_ICE40_PARAMS)"
	@TIMEFORMAT='yosys_seconds %R %U'; { time $(YOSYS) -q -l $@.log -p "$(YOSYS_READ) $(MPA_RX_SRCS); \
		chparam $(call mpa_rx_chparam,$(MPA_RX_ICE40_PARAMS)) mpa_rx; synth_ice40 -top mpa_rx; \
		tee -q -o $@.tmp stat" >/dev/null; } 2> $@.time
	@cat $@.tmp $@.time > $@ && rm -f $@.tmp $@.time

$(MPA_RX_DIR)/shell.json: $(MPA_RX_SRCS) $(RTL_INCS) scripts/synth/mpa_rx_shell.v $(MPA_RX_DIR)/ice40.params
	@echo "synth_ice40  mpa_rx_shell $(MPA_RX_ICE40_PARAMS)"
	@$(YOSYS) -q -l $@.log -p "$(YOSYS_READ) $(MPA_RX_SRCS) scripts/synth/mpa_rx_shell.v; \
		chparam $(call mpa_rx_chparam,$(MPA_RX_ICE40_PARAMS)) mpa_rx; \
		chparam -set DATA_WIDTH $(MPA_RX_SHELL_WIDTH) mpa_rx_shell; \
		synth_ice40 -top mpa_rx_shell -json $@.tmp; tee -q -o $(MPA_RX_DIR)/shell.txt stat" >/dev/null
	@mv $@.tmp $@

# nextpnr exits non-zero when the design does not fit: the log is kept and
# the report says so; otherwise icepack writes the bitstream.
$(MPA_RX_DIR)/pnr.txt: $(MPA_RX_DIR)/shell.json
	@echo "nextpnr-ice40 mpa_rx_shell (HX8K)"
	@rm -f $(MPA_RX_DIR)/mpa_rx_shell.asc $(MPA_RX_DIR)/mpa_rx_shell.bin
	@TIMEFORMAT='nextpnr_seconds %R %U'; { time $(NEXTPNR) $(NEXTPNR_FLAGS) --json $< \
		--asc $(MPA_RX_DIR)/mpa_rx_shell.asc > $@.tmp 2>&1; } 2> $@.time \
		|| echo "nextpnr_failed" >> $@.tmp
	@cat $@.time >> $@.tmp; rm -f $@.time
	@if [ -f $(MPA_RX_DIR)/mpa_rx_shell.asc ] && ! grep -q nextpnr_failed $@.tmp; then \
		echo "icepack mpa_rx_shell"; \
		icepack $(MPA_RX_DIR)/mpa_rx_shell.asc $(MPA_RX_DIR)/mpa_rx_shell.bin && \
		echo "bitstream $(MPA_RX_DIR)/mpa_rx_shell.bin $$(wc -c < $(MPA_RX_DIR)/mpa_rx_shell.bin)" >> $@.tmp; \
	else echo "nextpnr-ice40: mpa_rx_shell does not fit (see $@)"; fi
	@mv $@.tmp $@

$(MPA_RX_DIR)/xc7.txt: $(MPA_RX_SRCS) $(RTL_INCS) $(MPA_RX_DIR)/xc7.params
	@echo "synth_xilinx mpa_rx $(MPA_RX_XC7_PARAMS) (several minutes)"
	@TIMEFORMAT='yosys_seconds %R %U'; { time $(YOSYS) -q -l $@.log -p "$(YOSYS_READ) $(MPA_RX_SRCS); \
		chparam $(call mpa_rx_chparam,$(MPA_RX_XC7_PARAMS)) mpa_rx; synth_xilinx -top mpa_rx; \
		tee -q -o $@.tmp stat; flatten; \
		tee -q -a $@.tmp ltp -noff t:LUT* w:*; \
		tee -q -a $@.tmp ltp -noff t:LUT* t:MUXF* t:CARRY4 w:*" >/dev/null; } 2> $@.time
	@cat $@.tmp $@.time > $@ && rm -f $@.tmp $@.time

# memories: one line per memory (parameter set, CONN_COUNT, all or live,
# name, width, depth)
$(MPA_RX_DIR)/mem.txt: $(MPA_RX_SRCS) $(RTL_INCS) $(MPA_RX_DIR)/mem.params
	@echo "memories of mpa_rx at CONN_COUNT $(MPA_RX_MEM_CONNS)"
	@rm -f $@.tmp; set -e; for set in ice40 xc7; do \
		if [ $$set = ice40 ]; then p='$(MPA_RX_ICE40_PARAMS)'; else p='$(MPA_RX_XC7_PARAMS)'; fi; \
		if [ $$set = ice40 ]; then conns='$(MPA_RX_MEM_CONNS)'; \
		else conns='$(patsubst CONN_COUNT=%,%,$(filter CONN_COUNT=%,$(MPA_RX_XC7_PARAMS)))'; fi; \
		for n in $$conns; do \
			args=$$(for w in $$p; do case $$w in CONN_COUNT=*) ;; *) printf ' -set %s %s' "$${w%%=*}" "$${w#*=}";; esac; done); \
			$(YOSYS) -q -l $@.log -p "$(YOSYS_READ) $(MPA_RX_SRCS); chparam $$args -set CONN_COUNT $$n mpa_rx; \
				hierarchy -top mpa_rx; proc; flatten; tee -q -o $@.all dump m:*; \
				opt_clean; tee -q -o $@.live dump m:*" >/dev/null; \
			for k in all live; do awk -v set=$$set -v n=$$n -v k=$$k '$$1 == "memory" { \
				w = 0; s = 0; for (i = 2; i < NF; i += 2) { if ($$i == "width") w = $$(i+1); if ($$i == "size") s = $$(i+1) } \
				print set, n, k, $$NF, w, s }' $@.$$k >> $@.tmp; done; \
			echo "$$set $$n params $$p (CONN_COUNT $$n)" >> $@.tmp; \
		done; \
	done; rm -f $@.all $@.live; mv $@.tmp $@

# ---------------------------------------------------------------------------
# On-chip memory by width (docs/design.md section 6): buffers at each
# DATA_WIDTH for the default MAX_FRAME (1518) and the jumbo one (9018), and
# the bits per connection, from the memories Yosys infers (no synthesis:
# about half a minute). `make buffers BUFFERS_EXTRA="RQ_DEPTH=32"` sets
# more parameters.
BUFFERS_WIDTHS ?= 64 128 256 512
BUFFERS_FRAMES ?= 1518 9018
BUFFERS_EXTRA ?=
.PHONY: buffers
buffers: scripts/synth/buffers.sh
	@mkdir -p $(SYNTH_DIR)/buffers
	@YOSYS=$(YOSYS) sh scripts/synth/buffers.sh "$(MPA_RX_SRCS)" "$(BUFFERS_WIDTHS)" "$(BUFFERS_FRAMES)" \
		$(SYNTH_DIR)/buffers "$(BUFFERS_EXTRA)" | tee $(SYNTH_DIR)/buffers.txt

# ---------------------------------------------------------------------------
# The receiver's main blocks alone, each in a pin shell generated from its
# port list (scripts/synth/shellgen.sh), through synth_ice40 and
# nextpnr-ice40 on the HX8K: the fmax of each while the whole receiver does
# not fit (docs/synth.md). Parameters as mpa_rx instantiates them with the
# default MPA_RX_ICE40_PARAMS (64 bits, CONN_COUNT 16, FIFO_DEPTH 512).
# About 3 minutes; part of `make synth`, alone with `make synth-blocks`.
MPA_RX_BLOCKS ?= mpa_rx_parse mpa_rx_walk mpa_rx_ddp mpa_rx_place mpa_rx_ingress mpa_rx_ctx mpa_rx_feed mpa_rx_frame \
	mpa_rx_verdict mpa_rx_axi_wr mpa_rx_axil_regs mpa_rx_axi_gate
MPA_RX_BLOCK_PARAMS_mpa_rx_parse ?= DATA_WIDTH=64
MPA_RX_BLOCK_PARAMS_mpa_rx_walk  ?= DATA_WIDTH=64 MAX_FPDUS=220
MPA_RX_BLOCK_PARAMS_mpa_rx_ddp   ?= IDX_BITS=4 STAG_COUNT=64 RQ_DEPTH=4
MPA_RX_BLOCK_PARAMS_mpa_rx_place ?= DATA_WIDTH=64
MPA_RX_BLOCK_PARAMS_mpa_rx_ingress ?= FIFO_DEPTH=512 MAX_INFLIGHT=14
MPA_RX_BLOCK_PARAMS_mpa_rx_ctx     ?= CONN_COUNT=16
MPA_RX_BLOCK_PARAMS_mpa_rx_feed    ?= DATA_WIDTH=64
MPA_RX_BLOCK_PARAMS_mpa_rx_frame   ?= DATA_WIDTH=64 IDX_BITS=4 DEPTH=16
MPA_RX_BLOCK_PARAMS_mpa_rx_verdict ?= IDX_BITS=4 DEPTH=16
MPA_RX_BLOCK_PARAMS_mpa_rx_axi_wr    ?= DATA_WIDTH=64 ID_WIDTH=4 MAX_BURSTS=16
MPA_RX_BLOCK_PARAMS_mpa_rx_axil_regs ?= DATA_WIDTH=64 EVT_LANES=1
MPA_RX_BLOCK_PARAMS_mpa_rx_axi_gate  ?= EVT_LANES=1 DEPTH=256

# $(call mpa_rx_block_rules,BLOCK)
define mpa_rx_block_rules
MPA_RX_BLOCK_OUTS += $(MPA_RX_DIR)/blk_$(1).pnr.txt

$(MPA_RX_DIR)/blk_$(1).params: rtl-force
	@mkdir -p $$(@D)
	@echo '$(call block_srcs,$(1)) | $(MPA_RX_BLOCK_PARAMS_$(1))' | cmp -s - $$@ || \
		echo '$(call block_srcs,$(1)) | $(MPA_RX_BLOCK_PARAMS_$(1))' > $$@

$(MPA_RX_DIR)/blk_$(1).json: $(call block_srcs,$(1)) $(RTL_INCS) scripts/synth/shellgen.sh $(MPA_RX_DIR)/blk_$(1).params
	@echo "synth_ice40  $(1)_pshell $(MPA_RX_BLOCK_PARAMS_$(1))"
	@$(YOSYS) -q -p "$(YOSYS_READ) $(call block_srcs,$(1)); chparam $(call mpa_rx_chparam,$(MPA_RX_BLOCK_PARAMS_$(1))) $(1); \
		hierarchy -top $(1); tee -q -o $$@.ports dump $(1)/i:* $(1)/o:*" >/dev/null
	@sh scripts/synth/shellgen.sh $(1) $$@.ports > $(MPA_RX_DIR)/blk_$(1)_pshell.v
	@TIMEFORMAT='yosys_seconds %R %U'; { time $(YOSYS) -q -l $$@.log -p "$(YOSYS_READ) $(call block_srcs,$(1)) \
		$(MPA_RX_DIR)/blk_$(1)_pshell.v; chparam $(call mpa_rx_chparam,$(MPA_RX_BLOCK_PARAMS_$(1))) $(1); \
		synth_ice40 -top $(1)_pshell -json $$@.tmp; tee -q -o $(MPA_RX_DIR)/blk_$(1).stat stat" \
		>/dev/null; } 2>> $(MPA_RX_DIR)/blk_$(1).stat
	@mv $$@.tmp $$@

$(MPA_RX_DIR)/blk_$(1).pnr.txt: $(MPA_RX_DIR)/blk_$(1).json
	@echo "nextpnr-ice40 $(1)_pshell (HX8K)"
	@rm -f $(MPA_RX_DIR)/blk_$(1).asc $(MPA_RX_DIR)/blk_$(1).bin
	@TIMEFORMAT='nextpnr_seconds %R %U'; { time $(NEXTPNR) $(NEXTPNR_FLAGS) --json $$< \
		--asc $(MPA_RX_DIR)/blk_$(1).asc > $$@.tmp 2>&1; } 2> $$@.time || echo "nextpnr_failed" >> $$@.tmp
	@cat $$@.time >> $$@.tmp; rm -f $$@.time
	@if [ -f $(MPA_RX_DIR)/blk_$(1).asc ] && ! grep -q nextpnr_failed $$@.tmp; then \
		icepack $(MPA_RX_DIR)/blk_$(1).asc $(MPA_RX_DIR)/blk_$(1).bin && \
		echo "bitstream $(MPA_RX_DIR)/blk_$(1).bin $$$$(wc -c < $(MPA_RX_DIR)/blk_$(1).bin)" >> $$@.tmp; fi
	@mv $$@.tmp $$@
endef

MPA_RX_BLOCK_OUTS :=
$(foreach b,$(MPA_RX_BLOCKS),$(eval $(call mpa_rx_block_rules,$(b))))

.PHONY: synth-blocks
synth-blocks: $(MPA_RX_BLOCK_OUTS) scripts/synth/mpa_rx_blocks.sh
	@sh scripts/synth/mpa_rx_blocks.sh $(MPA_RX_DIR) "$(MPA_RX_BLOCKS)" | tee $(SYNTH_DIR)/mpa_rx_blocks.txt

$(SYNTH_DIR)/mpa_rx.txt: $(MPA_RX_DIR)/ice40.txt $(MPA_RX_DIR)/pnr.txt $(MPA_RX_DIR)/xc7.txt \
		$(MPA_RX_DIR)/mem.txt $(MPA_RX_BLOCK_OUTS) scripts/synth/mpa_rx_report.sh scripts/synth/mpa_rx_blocks.sh
	@{ sh scripts/synth/mpa_rx_report.sh $(MPA_RX_DIR) '$(MPA_RX_ICE40_PARAMS)' '$(MPA_RX_XC7_PARAMS)'; echo; \
		sh scripts/synth/mpa_rx_blocks.sh $(MPA_RX_DIR) "$(MPA_RX_BLOCKS)"; } > $@.tmp
	@mv $@.tmp $@

