# SPDX-License-Identifier: GPL-2.0
# Usage: awk -F'\t' -f symvers_diff.awk OLD NEW (two Module.symvers files:
# CRC, symbol, module, export type, namespace). Prints each symbol OLD
# exports that NEW does not ("removed: SYM"), or exports with another CRC,
# export type or namespace ("changed: SYM (OLD -> NEW)"). A symbol only
# NEW exports is no change. scripts/abi.sh uses it; scripts/test_abi.sh
# tests it.
NR == FNR { old[$2] = $1 " " $4 " " $5; next }
{ new[$2] = $1 " " $4 " " $5 }
END {
	for (s in old)
		if (!(s in new))
			print "removed: " s
		else if (new[s] != old[s])
			print "changed: " s " (" old[s] " -> " new[s] ")"
}
