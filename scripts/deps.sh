#!/bin/sh
# Installs the tools the project needs when they are missing (idempotent).
# Debian packages: verilator, iverilog, yosys, nextpnr-ice40, fpga-icestorm,
# tshark, zlib for Verilator's FST tracing, GNU time (peak RSS for
# `make bench-replay`), and z3 and cvc5, the solvers of the formal proofs
# (yosys-smtbmc comes with the yosys package).
set -eu
need=""
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
have_cmd verilator     || need="$need verilator"
have_cmd iverilog      || need="$need iverilog"
have_cmd yosys         || need="$need yosys"
have_cmd nextpnr-ice40 || need="$need nextpnr-ice40"
have_cmd icepack       || need="$need fpga-icestorm"
have_cmd tshark        || need="$need tshark"
have_cmd z3            || need="$need z3"
have_cmd cvc5          || need="$need cvc5"
# yosys-smtbmc comes with yosys: asked for once when both are missing
have_cmd yosys-smtbmc  || case "$need " in *" yosys "*) ;; *) need="$need yosys" ;; esac
have_pkg zlib1g-dev    || need="$need zlib1g-dev"
[ -x /usr/bin/time ]   || need="$need time"
if [ -z "$need" ]; then
	echo "deps: all tools present"
	exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "deps: installing$need"
$SUDO apt-get update -q
# tshark asks a debconf question unless the frontend is noninteractive.
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $need
for t in verilator iverilog yosys yosys-smtbmc z3 cvc5 nextpnr-ice40 icepack tshark; do
	have_cmd "$t" || { echo "deps: $t still missing after install" >&2; exit 1; }
done
