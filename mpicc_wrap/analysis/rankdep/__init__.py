"""Rank dependence: which C expressions may evaluate differently on different processes.

Implements the multi-valued expression analysis of Zhang & Duesterwald (paper 003 §3,
Definition 3.1) on the pycparser AST of one translation unit.  An expression is
multi-valued if (i) it is a seed, (ii) it is data-dependent on a multi-valued expression,
or (iii) it is a φ-node whose φ-gate (controlling predicate) is multi-valued.

Seeds: rank outputs of MPI calls (``catalogue.lookup(name).rank_outputs``: the rank of
MPI_Comm_rank, received data, per-rank reduction results, ...), results and pointer
outputs of per-process library functions (getpid, rand, time, gethostname, MPI_Wtime...),
and calls of other TUs' functions whose summary says ``returns_rank``.  Outputs all ranks
share (``shared_outputs``: the MPI_Bcast buffer, the MPI_Allreduce result) are
single-valued again after the call.  Assumption: argc/argv are single-valued, since
mpiexec gives every process the same command line.

Termination (bounds that depend only on the size of the TU):

* Locations are finite: the TU's names (typed, ``locations.py``: ``Local(f, x)``,
  ``Global(x)``, fields ``Field(f, T)`` by name and struct type (``T`` unknown or any:
  ``""``, ``"*"``), return slots ``Ret(f)``, parameter slots
  ``Param(f, i)``, call gates ``Ctl(f)``), each with at most ``MAX_DEREF`` (2)
  dereferences (``deref``: ``Deref(k, 2)`` summarises every location reached from k
  through two or more pointers), plus ``ANY``.  So there are
  L <= 3 * (names of the TU) + 1 locations, where a field name counts once for each
  struct type the TU (or a summary it reads) accesses it through, and twice more.
* Facts only grow: a location's reason, once set, stays; a points-to set only gains
  locations and is widened to ``{ANY}`` past ``MAX_POINTEES`` (96).  The lattice height
  is therefore at most L + 97 * L.
* The solver re-walks a unit only when a location it read grew, and at most
  ``WALKS_PER_UNIT`` * units + ``WALKS_SLACK`` walks in all; past that cap every memory
  location is multi-valued (``GAVE_UP``) and each unit is walked once more: the answer
  is conservative, never silent.
* Inside a walk, a loop iterates until its tracked locals stop growing (at most
  locals + 2 rounds); a loop re-entered in the same walk starts from its previous facts
  (widening), so a nest of depth d costs O(d * locals) rounds, not O(locals ** d).
  A function with ``goto`` is re-walked until its locals stop growing (weak updates).
* ``tests/analysis/test_analysis_termination.py`` prints the measured growth per program family.

Precision choices (each is conservative in the direction that does not hide a bug):

* Tracked locals (non-array, non-static locals and parameters whose address is taken
  only as a direct argument of a named call; assumption: callees do not keep such a
  pointer after returning) are flow-sensitive with strong updates, so
  ``if (rank == 0) n = read(); MPI_Bcast(&n, ...); if (n)`` is single-valued.  ``&x``
  passed to a function of this TU exchanges values with the callee's ``*param``.
  Everything else is flow-insensitive: globals, escaped locals, whole arrays (one
  object each, §3.2), struct fields by struct type and field name (``H->mype`` and
  ``s.mype`` are one location in every function when ``H`` and ``&s`` have one type;
  ``layouts.py`` states the effective-type assumption), pointer targets (an Andersen-style
  points-to set instead of §3.2's "every dereference is a seed"), parameters at entry
  (multi-valued when some in-TU call site passes a multi-valued argument) and return
  values.  One exception: a scalar global whose address the TU never takes, read
  after the function itself assigned it with ``=`` on its straight line (a statement
  of its body with no ``if``, ``switch`` or loop around it, under no per-process gate,
  in a function without ``goto``) and before any call that may write memory (not
  read-only, not MPI) or loop that may assign it, holds what was stored: every process
  that reads it there ran that store last (``Expressions._assigned``; hdf5's tests,
  ``pass = TRUE; if (pass)``, where another test clears ``pass`` on rank 0 alone).
  Calls are context-insensitive.  Variables of built-in arithmetic types hold
  no pointers, which keeps points-to sets small.  The TU is solved to a fixed point with
  a worklist: callers first, and a function is walked again only when a location it
  read has grown.
* φ-gating (§3, Fig. 2(d)): a write lexically inside an if/loop/switch/?:/&&/|| whose
  predicate is multi-valued is multi-valued.  For tracked locals under an ``if`` the gate
  is placed where §3 puts the φ-node, at the join: inside the arm the processes that run
  it agree on what it computes from single-valued data (a loop index bounding
  collectives under ``if (rank < n)``), after the join every local an arm wrote carries
  the test.  Memory that is not a tracked local has no join and is gated at the write;
  functions with ``goto`` gate at the write too (a jump out of an arm skips the join).
  After a return/goto (break/continue) gated by a multi-valued predicate, the rest of
  the function (loop body) is gated too, since the ranks that stay see different values
  than those that left; after returns, breaks and continues only (no goto in the
  function), not for its tracked locals, which only the ranks that stay read, and they
  agree on them (``statements._survivors``).  Likewise a loop whose test or break is
  multi-valued gates the tracked locals it writes at its exit, not inside (the ranks
  still in the loop ran the same rounds), unless a multi-valued ``continue`` brings
  ranks back with old values: the locals written after such a continue carry its test
  from the loop's head on (``statements._skipping``), and it gates no later round,
  which every rank runs (``statements._leaving``); a switch left by a multi-valued
  break gates them after it.  Loops whose exit depends on multi-valued values gate
  their whole body's writes to memory.
  Functions with ``goto`` use weak updates.
  A function called under a multi-valued predicate makes its writes to non-local memory
  (globals, statics, fields not reached through a parameter or of a local struct)
  multi-valued: ``if (rank == 0) init();`` leaves the globals init() sets different on
  different ranks.
* Calls of unknown external functions: the result is multi-valued iff an argument (or
  data it points to) is; a pointer argument is possibly written with a value derived from
  the other arguments (so ``sscanf(s, "%d", &x)`` leaves x single-valued, ``sprintf(buf,
  "%d", rank)`` makes buf multi-valued), except through the arguments of parameters
  their prototype declares pointer-to-const or of an arithmetic type
  (``frontend/prototypes.py``); functions of ``catalogue.READ_ONLY_FUNCTIONS`` never
  write, and the formatted output functions (``catalogue.WRITES_ONLY_ARGS``:
  ``snprintf`` and its kin) write only their destination, not what they format.
  Enumerators are constants: no pointer, never written.
  Known MPI functions write only their catalogue outputs; per-process library functions
  are ``catalogue.rank_source`` entries (scanf is one: only rank 0 gets stdin).

Rank dependence relative to a communicator (beyond both papers; ``communicators.py``).
A collective on communicator ``c`` involves only the members of ``c``, so it is
conditional only if some condition on its path can differ between two MEMBERS of ``c``.
The dependence of a value is therefore the set of communicators within which it may
differ; it is computed on demand: ``reason(f, cond, comm)`` first asks the world solve
(a value uniform within MPI_COMM_WORLD is uniform within every communicator, so the
world answer "uniform" is final), and only for a condition that differs across the
world solves the TU again relative to the handle location of ``comm`` (cached per
location).  ``findings`` judges each condition against the communicator of the
collective cluster it controls, and a root or operator against the call's communicator.
The relative solve is the world solve with fewer seeds, so it is never less uniform:

* ``MPI_Comm_rank(c)`` and every other seed stay seeds (the rank differs within ``c``).
* ``MPI_Comm_size(c)`` and the shared outputs of collectives are uniform, as in the
  world solve (they are uniform within the call's communicator; the world solve already
  assumes it for every communicator).
* ``h == MPI_COMM_NULL`` (or ``!=``) for the handle ``h`` of ``c`` is uniform: a member of
  ``c`` holds a valid handle there, so the test has one value on all members.  Sound
  because only members of ``c`` take part in a collective on ``c``: a non-member that
  reaches the collective with a null handle is an MPI error whatever the branches did.
* ``MPI_Comm_split(parent, colour, key, &h)`` gives each member of the new ``c`` the same
  colour, so the colour expression, the expression a colour variable was assigned
  once, the test that chose between two constant colours (``x = K1; if (P) x = K2;``),
  and the predicate ``P`` of a colour ``P ? a : b`` with distinct constant arms are
  uniform within ``c``.
* Every member of ``c`` made the call that created it, so the conditions of the ``if``
  statements around that call held alike on all of them -- provided the handle is a
  tracked local written only by that call (``MPI_Comm_create_group`` under
  ``if (rank <= size / 2)``, then ``MPI_Barrier`` under the same test).
* Both facts hold only where the constructor is in the function that tests them,
  every variable they read is a tracked local written at most once there (a parameter
  counts as written at entry), outside loops, the constructor is outside loops, and the
  function has no ``goto``: then each later evaluation sees exactly the values the
  constructor's callers saw (a read before the single write reads an indeterminate
  value).
* A handle is identified by its location (``Local``/``Global`` name, ``*p``, a field by
  name, an array's elements); a communicator text the analysis cannot resolve, or
  ``MPI_COMM_WORLD``, is judged against the world.

The success assumption (beyond both papers; ``analysis/failures.py``): the analysis judges a run
in which no MPI call and no allocation fails.  A test true only after a failure
(``rc != MPI_SUCCESS`` on an MPI call's result, ``p == NULL`` on an allocation's) has one
value on every process, and its failure arm is not walked.  ``success=False``
(-Wmpi-error-divergence) drops the assumption.

Modules: ``locations`` (typed locations, the fact store, per-function scopes),
``pointsto`` (points-to sets), ``expressions`` (values and calls), ``statements``
(gating, loops, exits), ``communicators`` (the relative facts) and ``solver`` (the
fixed point and the public questions).  AST dispatch is ``analysis.visitor.Visitor``
(pycparser's ``NodeVisitor`` with cheaper dispatch) throughout (``visit_<Node>``).
"""

from mpicc_wrap.analysis.rankdep.locations import ANY, MAX_DEREF, MAX_POINTEES, deref
from mpicc_wrap.analysis.rankdep.solver import WALKS_PER_UNIT, WALKS_SLACK, RankDependence

__all__ = ["ANY", "MAX_DEREF", "MAX_POINTEES", "WALKS_PER_UNIT", "WALKS_SLACK",
           "RankDependence", "deref"]
