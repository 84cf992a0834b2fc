#!/usr/bin/env python3
"""Per-operation counts from two callgrind profiles of the same operation repeated N1 and N2 times.

    callgrind-counts.py N1 FILE1 N2 FILE2 [--top K]

Prints instructions (Ir), mallocs (calls to malloc, calloc, realloc, posix_memalign,
aligned_alloc made by the program, not the allocator's own forwarding calls), swift_allocObject,
swift_retain and swift_release per operation: (count in FILE2 - count in FILE1) / (N2 - N1).
With --top K, also the K functions whose own instructions (self cost) grew most per operation,
and the K callers that made the most mallocs per operation.
"""
import collections
import re
import sys

ALLOCATORS = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc"}
COUNTED = ["swift_allocObject", "swift_retain", "swift_release"]


def read_profile(path):
    """Total Ir, self Ir per function, and call counts per (caller, callee) of a callgrind.out file."""
    names = {}
    total = None
    self_cost = collections.Counter()
    calls = collections.Counter()
    fn = cfn = None
    after_calls = False

    def name(field):
        match = re.match(r"\((\d+)\)(?: (.*))?", field)
        if not match:
            return field
        if match.group(2):
            names[match.group(1)] = match.group(2)
        return names.get(match.group(1), match.group(1))

    with open(path, errors="replace") as lines:
        for line in lines:
            line = line.rstrip("\n")
            if line.startswith("fn="):
                fn = name(line[3:])
            elif line.startswith("cfn="):
                cfn = name(line[4:])
            elif line.startswith("calls="):
                calls[(fn, cfn)] += int(line[6:].split()[0])
                after_calls = True
            elif line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
            elif line and (line[0].isdigit() or line[0] in "+-*"):
                if after_calls:
                    after_calls = False  # the inclusive cost of the call just listed
                else:
                    parts = line.split()
                    if len(parts) > 1:
                        self_cost[fn] += int(parts[1])
    return total, self_cost, calls


def main():
    args = sys.argv[1:]
    top = 0
    if "--top" in args:
        index = args.index("--top")
        top = int(args[index + 1])
        del args[index:index + 2]
    if len(args) != 4:
        sys.exit(__doc__)
    n1, file1, n2, file2 = int(args[0]), args[1], int(args[2]), args[3]
    if n2 <= n1:
        sys.exit("N2 must be larger than N1")
    per = float(n2 - n1)
    (total1, self1, calls1), (total2, self2, calls2) = read_profile(file1), read_profile(file2)

    def callee_total(calls, callee, program_only):
        return sum(count for (caller, target), count in calls.items()
                   if target == callee and not (program_only and caller and caller.startswith("replacement_")))

    print(f"instructions per operation: {(total2 - total1) / per:,.0f}")
    mallocs = sum(callee_total(calls2, a, True) - callee_total(calls1, a, True) for a in ALLOCATORS)
    print(f"mallocs per operation:      {mallocs / per:,.1f}")
    for counted in COUNTED:
        print(f"{counted + ' per operation:':28s}{(callee_total(calls2, counted, False) - callee_total(calls1, counted, False)) / per:,.1f}")
    if top:
        print(f"\ntop {top} functions by own instructions per operation:")
        grown = {f: (self2[f] - self1.get(f, 0)) / per for f in self2}
        for function, cost in sorted(grown.items(), key=lambda item: -item[1])[:top]:
            print(f"  {cost:10,.0f}  {function[:150]}")
        print(f"\ntop {top} callers of the allocator by mallocs per operation:")
        by_caller = collections.Counter()
        for (caller, target), count in calls2.items():
            if target in ALLOCATORS and not (caller or "").startswith("replacement_"):
                by_caller[caller] += count
        for (caller, target), count in calls1.items():
            if target in ALLOCATORS and not (caller or "").startswith("replacement_"):
                by_caller[caller] -= count
        for caller, count in by_caller.most_common(top):
            print(f"  {count / per:8.1f}  {caller[:150]}")


if __name__ == "__main__":
    main()
