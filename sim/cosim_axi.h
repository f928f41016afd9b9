// Copyright 2026 The mparx Authors. SPDX-License-Identifier: Apache-2.0
//
// cosim_axi.h: bus partners that run inside the stepping loop of a model
// (cosim_model.h), so that a model with an AXI4 port runs in batches
// like one with stream ports only. Each is an Agent: before the inputs
// are applied it drives its input ports into the cycle's input record
// (decided from its own state), and after the outputs are sampled it
// takes the cycle's handshakes and the clock edge.
//
// AxiSlave is the write-only AXI4 slave of cosim/internal/axi (Memory)
// written again in C++: the same behaviour (latency, jitter, stalls on
// AWREADY, WREADY and BVALID, responses out of order across IDs, SLVERR and
// DECERR) drawn from the same random sequence. GoRand reproduces Go's
// math/rand/v2 (PCG-DXSM, Float64, IntN), so that with the same seed the
// two slaves drive the same signals in every cycle; cosim/rx runs a
// workload through both and compares. The slave keeps no data: the W
// beats, the AW payloads and the B order are in the cycle records Go
// reads; it logs the response it chose for each burst, in AW order.
#ifndef MPARX_COSIM_AXI_H
#define MPARX_COSIM_AXI_H

#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include "mparxsim.h"

namespace mparx {

// A bus partner stepped by SimModel once per cycle.
class Agent {
  public:
    virtual ~Agent() = default;
    // Drives the agent's input ports of this cycle into the input record.
    virtual void drive(uint64_t *in) = 0;
    // Takes the cycle's handshakes (in: what was applied, out: the model's
    // outputs before the edge) and the rising edge.
    virtual void observe(const uint64_t *in, const uint64_t *out) = 0;
};

// GoRand is Go's math/rand/v2 Rand over a PCG source: NewPCG(seed1, seed2)
// and the methods Uint64, Float64 and IntN, with their exact sequences.
class GoRand {
  public:
    GoRand(uint64_t seed1, uint64_t seed2) : hi_(seed1), lo_(seed2) {}

    uint64_t uint64() {
        const uint64_t mul_hi = 2549297995355413924ull, mul_lo = 4865540595714422341ull;
        const uint64_t inc_hi = 6364136223846793005ull, inc_lo = 1442695040888963407ull;
        unsigned __int128 p = static_cast<unsigned __int128>(lo_) * mul_lo;
        uint64_t hi = static_cast<uint64_t>(p >> 64) + hi_ * mul_lo + lo_ * mul_hi;
        uint64_t lo = static_cast<uint64_t>(p) + inc_lo;
        uint64_t carry = lo < inc_lo ? 1 : 0;
        hi += inc_hi + carry;
        lo_ = lo;
        hi_ = hi;
        // DXSM
        hi ^= hi >> 32;
        hi *= 0xda942042e4dd58b5ull;
        hi ^= hi >> 48;
        hi *= (lo | 1);
        return hi;
    }

    double float64() { return static_cast<double>(uint64() << 11 >> 11) / 9007199254740992.0; }

    // intn returns a number in [0, n), n > 0.
    uint64_t intn(uint64_t n) {
        if ((n & (n - 1)) == 0) return uint64() & (n - 1);
        unsigned __int128 m = static_cast<unsigned __int128>(uint64()) * n;
        uint64_t lo = static_cast<uint64_t>(m);
        if (lo < n) {
            uint64_t thresh = (0 - n) % n;
            while (lo < thresh) {
                m = static_cast<unsigned __int128>(uint64()) * n;
                lo = static_cast<uint64_t>(m);
            }
        }
        return static_cast<uint64_t>(m >> 64);
    }

  private:
    uint64_t hi_, lo_;
};

// The port roles of an AxiSlave, in the order mparx_sim_axi_slave_add
// takes their indices.
enum AxiSlavePort {
    kAwready, kWready, kBvalid, kBid, kBresp,  // inputs
    kAwvalid, kAwid, kAwlen, kWvalid, kBready,  // outputs
    kAxiSlavePorts
};

class AxiSlave final : public Agent {
  public:
    // offsets: the first word of each role's port in its record.
    AxiSlave(const mparx_axi_slave_config &cfg, const int *offsets);

    void drive(uint64_t *in) override;
    void observe(const uint64_t *in, const uint64_t *out) override;

    void stats(mparx_axi_slave_stats *st) const;
    // Copies up to cap responses chosen since the last call (AW order) and
    // forgets them; returns how many.
    int64_t take_resps(uint8_t *dst, int64_t cap);

  private:
    struct Burst {
        uint64_t seq;
        uint32_t id;
        int len;    // beats
        int beats;  // beats received
        uint8_t resp;
        uint64_t due;  // the cycle its response may be presented from
    };

    bool chance(double p) { return p > 0 && rng_.float64() < p; }
    bool pick(Burst *b);

    mparx_axi_slave_config cfg_;
    int off_[kAxiSlavePorts];
    GoRand rng_;
    uint64_t cycle_ = 0;
    std::deque<Burst> bursts_;                   // accepted, not all beats in (AW order)
    uint64_t early_ = 0;                         // beats accepted before their AW
    std::map<uint32_t, std::deque<Burst>> ready_;  // per ID: all beats in, not answered
    bool present_ = false;                       // a response is on the B channel
    Burst pres_{};
    uint64_t open_ = 0;
    uint64_t nseq_ = 0;
    bool awready_ = false, wready_ = false;      // what drive decided for this cycle
    mparx_axi_slave_stats st_{};
    std::vector<uint8_t> resps_;
    std::vector<const Burst *> heads_;
};

}  // namespace mparx

#endif  // MPARX_COSIM_AXI_H
