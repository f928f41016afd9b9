#!/bin/sh
# Installs the tools the project needs when they are missing (idempotent).
# Debian packages: verilator, iverilog, yosys, nextpnr-ice40, fpga-icestorm,
# tshark, z3 (the solver of the formal proofs, through yosys-smtbmc), and
# zlib for Verilator's FST tracing.
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
have_pkg zlib1g-dev    || need="$need zlib1g-dev"
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
for t in verilator iverilog yosys nextpnr-ice40 icepack tshark z3; do
	have_cmd "$t" || { echo "deps: $t still missing after install" >&2; exit 1; }
done
