"""cDAG: find hand-written collectives in recorded point-to-point traffic.

After Hoefler & Schneider, "Runtime Detection and Optimization of Collective
Communication Patterns" (PACT 2012): ``graph`` (the cDAG: operations and local
dependencies), ``matching`` (App. Alg. 1), ``dataflow`` (Static Single Transfer form
with splits, Alg. 3 and 4), ``waitsets`` (§2.3), ``detect`` (Alg. 5 and the rooted
subsets of §4.2), ``records`` (the runtime's per-rank files) and ``report`` (lines,
JSON, communication matrix).
"""
