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
