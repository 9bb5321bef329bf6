// SPDX-License-Identifier: GPL-2.0
/*
 * costmark: the costmodel plugin's whole-machine marks, for a guest's
 * user space. A workload that the benchmark module does not run itself
 * (pktgen, driven by the kselftest through /proc) is counted on every
 * vCPU between "costmark start" and "costmark stop": its TX completion
 * runs wherever the NIC's interrupt goes.
 *
 *   costmark start   BEGIN, then ALL_START: a report numbered 0 follows
 *   costmark stop    ALL_STOP, then REPORT
 *   costmark kat     the known answer: a section of exactly 1000 NOPs
 *
 * Without the plugin each mark is one NOP. Static, as the guest has no
 * C library.
 */
#include <stdio.h>
#include <string.h>

/* nopl 0x5b0b1c00+op(%rax,%rax,1): 0f 1f 84 00, then the displacement. */
#define MARK(op) asm volatile(".byte 0x0f, 0x1f, 0x84, 0x00\n\t.long 0x5b0b1c00 + " #op ::: "memory")
#define REPORT		MARK(5)
#define BEGIN		MARK(6)
#define ALL_START	MARK(7)
#define ALL_STOP	MARK(8)

int main(int argc, char **argv)
{
	if (argc != 2)
		goto usage;
	if (!strcmp(argv[1], "start")) {
		BEGIN;
		ALL_START;
	} else if (!strcmp(argv[1], "stop")) {
		ALL_STOP;
		REPORT;
	} else if (!strcmp(argv[1], "kat")) {
		BEGIN;
		ALL_START;
		asm volatile(".rept 1000\n\tnop\n\t.endr");
		ALL_STOP;
		REPORT;
	} else {
		goto usage;
	}
	return 0;
usage:
	fprintf(stderr, "usage: costmark start|stop|kat\n");
	return 2;
}
