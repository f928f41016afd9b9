/*
 * Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
 *
 * mparxsim.h: the C interface between package cosim (Go, through cgo) and the
 * Verilator models of sim/ (C++). One static library, sim/build/libmparxsim.a,
 * holds every model variant (a top module with one parameter set), the
 * Verilator runtime and sim/cosim_runtime.cpp; a variant is opened by name.
 *
 * Per-cycle inputs and outputs are flat arrays of 64-bit words. Every port
 * except the clock `clk` owns ceil(width/64) consecutive words in the input
 * or the output array of a cycle, least significant word first (byte lane k
 * of a wide port is byte k%8 of word k/8). Bits above the width are zero.
 * A batch of n cycles is n consecutive cycle records.
 *
 * This file is kept inside the Go package directory so that the Go build
 * cache sees changes to it; it is plain C and is also included by the C++
 * side.
 */
#ifndef MPARXSIM_H
#define MPARXSIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mparx_sim mparx_sim;

/* Port directions. */
enum { MPARX_IN = 0, MPARX_OUT = 1 };

/* A port of the model, as reported by mparx_sim_port. */
typedef struct {
    const char *name;
    int32_t dir;    /* MPARX_IN or MPARX_OUT */
    int32_t width;  /* bits */
    int32_t offset; /* first word in the input or output record of a cycle */
    int32_t words;  /* ceil(width / 64) */
} mparx_port;

/*
 * A stream source's queue of beats, in C memory. The Go side appends records
 * at tail, the model consumes them from head. A record is rec_words words:
 * the number of idle cycles (tvalid low) before the beat, then the payload
 * ports' words in the order given to mparx_sim_source_add.
 */
typedef struct {
    uint64_t *buf;
    int64_t cap;       /* words */
    int64_t head;      /* first unconsumed word */
    int64_t tail;      /* one past the last written word */
    int32_t rec_words;
    int32_t pad;
    uint64_t accepted; /* beats accepted (tvalid && tready) so far */
} mparx_queue;

/* Names of all variants linked into the library, separated by spaces. */
const char *mparx_sim_variants(void);

/*
 * Opens a new instance of a variant. trace_path (may be NULL or empty) names
 * an FST file to write; cycles before trace_from are not dumped. On error,
 * returns NULL and writes a message to err (errlen bytes).
 */
mparx_sim *mparx_sim_open(const char *variant, const char *trace_path, uint64_t trace_from,
                          char *err, int32_t errlen);

/* Finishes the model, closes the trace and frees the instance. */
void mparx_sim_close(mparx_sim *s);

int32_t mparx_sim_nports(const mparx_sim *s);
/* Port i (0 <= i < nports); the name stays valid until close. */
mparx_port mparx_sim_port(const mparx_sim *s, int32_t i);
int32_t mparx_sim_in_words(const mparx_sim *s);
int32_t mparx_sim_out_words(const mparx_sim *s);

/*
 * Adds an AXI4-Stream style source: while its queue has a beat whose idle
 * count has run out, the model drives the payload ports from the record and
 * the valid port high; the beat is consumed when the ready output is high in
 * the same cycle (before the clock edge). Otherwise valid is driven low and
 * the payload ports keep the values of the input record. Returns the source
 * index or -1 (err as for open).
 */
int32_t mparx_sim_source_add(mparx_sim *s, int32_t valid_port, int32_t ready_port,
                             const int32_t *payload_ports, int32_t npayload, char *err,
                             int32_t errlen);
mparx_queue *mparx_sim_source_queue(mparx_sim *s, int32_t source);
/* Makes room for at least `words` more words at the queue tail (compacts or grows). */
void mparx_sim_source_reserve(mparx_sim *s, int32_t source, int64_t words);

/*
 * Runs n cycles. For each cycle c: the sources override their ports in
 * in[c*in_words ...] (so that the record holds what was applied), the inputs
 * are applied with clk low and the model evaluated, the outputs are copied to
 * out[c*out_words ...], handshakes are taken, then clk rises. Returns the
 * number of cycles run (n).
 */
int64_t mparx_sim_step(mparx_sim *s, int64_t n, uint64_t *in, uint64_t *out);

/*
 * An AXI4 write slave run by the model in every cycle (sim/cosim_axi.h):
 * the behaviour of package cosim/internal/axi's Memory (its MemoryConfig),
 * drawn from the same random sequence as the Go model with the same seed.
 */
typedef struct {
    int32_t data_bytes;
    int32_t latency;    /* cycles from a burst's last W handshake to its B response being ready */
    int32_t jitter;     /* a random 0..jitter cycles more, per burst */
    int32_t reorder;    /* ready responses of different IDs in random order */
    int32_t wait_aw;    /* WREADY only while an accepted burst waits for beats */
    int32_t max_bursts; /* bursts accepted and not answered, at most (0: no limit) */
    double aw_stall;    /* probability that AWREADY is low in a cycle */
    double w_stall;     /* probability that WREADY is low in a cycle */
    double b_stall;     /* probability that a ready response is held back a cycle */
    double slv_err;     /* probability that a burst is answered SLVERR */
    double dec_err;     /* probability that a burst is answered DECERR */
    uint64_t seed;
} mparx_axi_slave_config;

enum { MPARX_AXI_OKAY = 0, MPARX_AXI_SLVERR = 2, MPARX_AXI_DECERR = 3 };

/* What an AXI4 slave saw so far. */
typedef struct {
    uint64_t bursts;    /* AW handshakes */
    uint64_t beats;     /* W handshakes */
    uint64_t responses; /* B handshakes */
    uint64_t slv_errs;  /* bursts answered SLVERR */
    uint64_t dec_errs;  /* bursts answered DECERR */
    uint64_t max_open;  /* most bursts accepted and not answered at once */
    uint64_t open;      /* bursts accepted and not answered now */
    uint64_t early;     /* W beats waiting for their AW now */
} mparx_axi_slave_stats;

/*
 * Adds an AXI4 write slave. ports holds the indices of its ports in this
 * order: the inputs AWREADY, WREADY, BVALID, BID, BRESP, then the outputs
 * AWVALID, AWID, AWLEN, WVALID, BREADY. In every cycle (before the inputs
 * are applied) it drives its five inputs into the input record, then takes
 * the cycle's handshakes. Returns the slave's index or -1 (err as for open).
 */
int32_t mparx_sim_axi_slave_add(mparx_sim *s, const mparx_axi_slave_config *cfg,
                                const int32_t *ports, int32_t nports, char *err, int32_t errlen);
void mparx_sim_axi_slave_stats(const mparx_sim *s, int32_t slave, mparx_axi_slave_stats *st);
/*
 * Copies to dst up to cap of the responses (MPARX_AXI_*) the slave chose
 * for the bursts it accepted since the last call, in AW order, and returns
 * how many.
 */
int64_t mparx_sim_axi_slave_take_resps(mparx_sim *s, int32_t slave, uint8_t *dst, int64_t cap);

/*
 * n draws of the slave's random generator (Go's math/rand/v2 PCG seeded
 * with seed1, seed2): kind 0 Uint64, 1 Float64 (its bits), 2 IntN(mod).
 */
void mparx_go_rand(uint64_t seed1, uint64_t seed2, int32_t kind, uint64_t mod, int64_t n, uint64_t *out);

/* Cycles run since open. */
uint64_t mparx_sim_cycle(const mparx_sim *s);

/* Flushes the trace file, if any. */
void mparx_sim_flush(mparx_sim *s);

/*
 * Runs the variant's model for n cycles in a plain C++ loop, driving its
 * inputs straight from `in` (n records, applied as by mparx_sim_step, no
 * sources) and discarding outputs except for a checksum; returns the elapsed
 * nanoseconds and stores the output checksum. Used by the co-simulation
 * benchmark as the baseline.
 */
int64_t mparx_sim_plain_loop(const char *variant, int64_t n, const uint64_t *in,
                             uint64_t *checksum);

#ifdef __cplusplus
}
#endif

#endif /* MPARXSIM_H */
