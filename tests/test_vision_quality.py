"""Quality floors of the learned Vision on real documents nobody here wrote (the labelled set's Debian part).

The documents of a split whose texts come from Debian documentation packages (installed by .ci/run; the GitHub
cache is not there in CI) are stored in a fresh database as the crawler stores pages and scored by the Vision
(``pipeline.score.score_corpus``); the issue's figures (``pipeline.vision.evaluate``) must reach the floors.

Since phase 3 (2026-12-01) the shipped model is trained on the splits that have been looked at (phase 6: train,
dev, test, test2, test3 and test4; tools/train_vision.py): their floors are **regression floors on in-sample
data**, not evidence of generalisation. That is what the leave-families-out figures in docs/perf.md and the
held-out split of each phase (test5 for phase 6: scored once by the coordinator; its floors below keep what it
measured then) are for.

``test``'s floors are the issue's targets where the Vision meets them and, where it does not, the figure
measured rounded to two digits on the lenient side, so a real regression fails, with the issue's target beside
it. Measured with phase 4 (the merged vrel + vcopy Vision, 2026-12-01): relevance AUC 0.993 (floor 0.99; target
0.95), Spearman 0.554 (0.55; 0.6), near-copy recall 0.923 (0.92; 0.95), false copy flags 2.4% (3%; 2%), technical
pages high/medium 0.855 (0.85; 0.8, met); phase 5 (value5) measures 0.992, 0.707, 0.923, 2.4%, 0.842. The scorer
of before the Vision fails six of the eight on the same 151 documents: AUC 0.575, Spearman 0.351, traps below the
median 0.742, recall 0.346, false flags 13.6%, copies to keep kept 0.400, technical high/medium 0. Phase 7
(rel8: the learned topic probability counted less where the profile's senses read another field) measures AUC
0.987 here, floor 0.98: clFFT's setup-data page, read as another sense, falls below off-topic pages, while out of
fold (leave-families-out over seven splits) the same change raised the AUC 0.954 -> 0.967.

``test2`` was the held-out split of phase 3 (docs/perf.md, "A fresh held-out split"): its Debian part's floors
were then held-out figures (AUC 0.820, Spearman 0.455, technical high/medium 0.263, ...). Since phase 4 the model
is trained on it and the copies rules were judged on it, so they are in-sample regression floors at what the
merged phase 4 measured there: relevance AUC 0.998 (floor 0.99), Spearman 0.464 (0.46; phase 5 measures 0.545,
since a repeat keeps its content's value: the six man pages found as the copies of their HTML twins were valued
near 0 as repeats), near-copy recall 1.0 (the target), false copy flags 2.8% (3%), the copy to keep kept 0.933
(0.93), technical pages high/medium 0.855 in phase 4, 0.829 in phase 5 (floor 0.82: the model retrained on five
splits calibrates its relevance cuts with test3's off-topic pages too, medium 0.443 → 0.448, which two of test2's
technical Debian pages sit between), traps and off-topic at the targets.

``test3`` was the held-out split of phase 4: 18 sources labelled after test2 was scored (docs/perf.md, "test3"),
scored once by the merged phase 4. Its Debian part (185 documents) measured then: relevance AUC 0.862, Spearman
0.332, traps below the median 0.978, near-copy recall 0.867, false copy flags 0.6%, the copy to keep kept 1.0,
technical pages high/medium 0.548, off-topic high/medium 2.9%. Since phase 5 the model is trained on it, so its
floors are in-sample regression floors at what phase 5 (value5) measures there: AUC 0.985 (floor 0.98), Spearman
0.508 (0.50), recall 0.867 (0.86), false flags 0.6%, copy kept 1.0, technical high/medium 0.589 (0.58),
off-topic 0% (the targets where met). Phase 6's copies (copy6: a notebook read as JSON signed by its cells) find
ipyparallel's notebook as its page's copy: recall 0.933 (floor 0.93). Traps below the median: 1.0 in phase 5,
0.978 with the model trained on six splits (phase 6; floor 0.97): libxsmm's TensorFlow build page (install steps
whose code names tiles and intrinsics) sits above the median, the six-split value model's doing, not the
relevance's; leave-families-out over six splits the traps stay at 0.992.

``test4`` was the held-out split of phase 5: 13 sources labelled after test3 was scored (docs/perf.md, "test4"),
scored once by the merged phase 5. Its Debian part (136 documents) measured then: relevance AUC 0.875, Spearman
0.276, traps below the median 0.852, near-copy recall 0.857, false copy flags 0%, the copy to keep kept 1.0,
technical pages high/medium 0.346, off-topic high/medium 3.8%. Since phase 6 the model is trained on it, so its
floors are in-sample regression floors at what the merged phase 6 measures there: AUC 0.988 (floor 0.98),
Spearman 0.455 (0.45), traps 0.926 (0.92: likwid's genTopoCfg man page and Dask's "related work" essay above the
median; the type model's stronger regularisation, c_type 0.03, lifts the essay, while out of fold over six splits the
share below the median rises, 0.992 -> 0.995), recall 1.0, false flags 0%, copy kept 1.0, technical
high/medium 0.519 (0.51), off-topic 0% (the targets where met). Phase 6's copies
(copy6: a reStructuredText changelog signed without its link targets and reference marks) find Dask's plain and
source changelogs as copies of the rendered one: recall 1.0 (the target, 0.95).

``test5`` is the held-out split of phase 6: 20 sources labelled after test4 was scored (docs/perf.md, "test5"),
read by no training and no choice of the Vision, scored once by the merged phase 6. Its Debian part (169
documents) measured: relevance AUC 0.906 (floor 0.90), Spearman 0.163 (0.16: tiers B and C only, Sphinx source
copies labelled with their content's tier), traps below the median 0.917 (0.91), near-copy recall 0.833 (0.83),
false copy flags 2.6% (0.03: petsc4py's one-template manual pages), the copy to keep kept 1.0 (the target),
technical pages high/medium 0.561 (0.56), off-topic high/medium 1.6% (the target, 5%). Far from the issue's
targets in five places, and said so; the floors hold what generalised. Since phase 7 the model is trained on it
(its floors stay where phase 6 measured them, as regression floors).

``test6`` is the held-out split of phase 7: 20 sources labelled after test5 was scored (docs/perf.md, "test6"),
read by no training and no choice of the Vision, scored once by the merged phase 7. Its Debian part (170
documents: LAPACK, CombBLAS, ORC, OPARI2, the ARM compute library; OpenSubdiv, vkd3d, tachyon, SciPy and Sphinx
mostly off-topic) measured: relevance AUC 0.877 (floor 0.87), Spearman 0.435 (0.43: tiers B and C only), traps
below the median 1.0, near-copy recall 1.0, the copy to keep kept 1.0 (the targets), false copy flags 2.5%
(0.03: LAPACK's variant pages and CombBLAS's page index), technical pages high/medium 0.672 (0.67), off-topic
high/medium 13.4% (0.14: pages of OpenSubdiv, a GPU graphics library, and tachyon, a parallel ray tracer, at
medium, above phase 7's lower medium cut; the target is 5%).

Since phase 8 test6 is training data too (its floors stay where phase 7 measured them, as regression floors).

``test7`` is the held-out split of phase 8: 19 sources labelled after test6 was scored (docs/perf.md, "test7"),
read by no training and no choice of the Vision, scored once by the merged phase 8. Its Debian part (163
documents: Valgrind's manual, BLIS, SuperLU, pyFFTW, gpyfft; PostgreSQL, SymPy, pandas and Maxima mostly off-topic)
measured: relevance AUC 0.891 (floor 0.89), Spearman 0.286 (0.28), traps below the median 1.0 (the target),
near-copy recall 0.632 (0.63: SuperLU's precision twins and gpyfft's Sphinx sources missed), false copy flags 1.4%
(the target), the copy to keep kept 0.947 (0.94), technical pages high/medium 0.538 (0.53: Valgrind's and
pyFFTW's manuals read low), off-topic high/medium 4.5% (the target). Far from the issue's targets in five places,
and said so; the floors hold what generalised. Since phase 9 test7 is training data too (its floors stay where
phase 8 measured them, as regression floors).

``test8`` is the held-out split of phase 9: 20 sources labelled after test7 was scored (docs/perf.md, "test8"),
read by no training and no choice of the Vision, scored once by the merged phase 9. Its Debian part (193
documents: VOLK, ATLAS, mpi4py-fft, StarPU, SIMDe, SLEPc; Octave, Tablix, NLopt and PCP mostly off-topic) measured:
relevance AUC 0.966 (the target), Spearman 0.5999 (floor 0.59: a hair under the target), traps below the median
1.0, false copy flags 0.6%, technical pages high/medium 0.845, off-topic high/medium 1.3% (the targets),
near-copy recall 0.647 (0.64: mpi4py-fft's Sphinx sources, Octave's reference card in other paper sizes, a
StarPU example's compiler variant missed), the copy to keep kept 0.933 (0.93). Short of the targets in three
places, and said so. Since phase 10 test8 is training data too (its floors stay where phase 9 measured them).

``test9`` is the held-out split of phase 11: 20 sources labelled after test8 was scored (docs/perf.md, "test9"),
read by no training and no choice of the Vision, scored once by the merged phase 11. Its Debian part (183
documents: PAPI, libpfm4, gperftools, GROMACS, intel-gpu-tools; CMake, Blitz++, Charliecloud, SystemTap and libvc
mostly off-topic or administrative) measured: relevance AUC 0.558 (floor 0.55: the hardware-counter libraries' man
pages read low, array-library and container pages at medium), Spearman 0.445 (0.44), traps below the median 0.875
(0.87: GROMACS's install guide and performance release notes), near-copy recall 0.96 and false copy flags 0.6% (the
targets), the copy to keep kept 0.955 (0.95), technical pages high/medium 0.333 (0.33), off-topic high/medium 22.4%
(0.23). The furthest from the issue's targets of any held-out split, and said so; since phase 12 it is training
data (its floors stay where phase 11 measured them, as regression floors: in sample it reads AUC 0.788, off-topic
5.3%).

``test10`` is the held-out split of phase 12: 20 sources labelled after test9 was scored (docs/perf.md, "test10"),
read by no training and no choice of the Vision, scored once by the merged phase 13. Its Debian part (165
documents: Google Benchmark, uftrace, pyFAI, libnuma, silx; FFmpeg, bpftrace, Snakemake, Scrapy and nginx mostly
off-topic) measured: relevance AUC 0.886 (floor 0.88: the function tracer's man pages and Google Benchmark's tool
notes read low), Spearman 0.645, traps below the median 1.0, false copy flags 0.7%, the copy to keep kept 1.0 (the
targets), near-copy recall 0.880 (0.88: FFmpeg's library man pages against their HTML descriptions), technical
pages high/medium 0.604 (0.6), off-topic high/medium 6.5% (0.07: silx's changelogs, Snakemake's cluster page).
Since phase 14 it is training data (its floors stay where phase 13 measured them, as regression floors).

``test11`` is the held-out split of phases 14-15: 20 sources labelled after test10 was scored (docs/perf.md,
"test11"), read by no training and no choice of the Vision, scored once by the merged phase 15. Its Debian part (167
documents: OpenCV, OpenBLAS, clinfo, rocm-smi, ltrace, a password cracker's GPU notes; perf-tools, the Apache
manual, xarray and PyTables off-topic) measured: relevance AUC 0.9095 (floor 0.90), Spearman 0.549 (0.54), near-copy recall
0.92 (0.92: a German page of the web server's manual, an OpenCL sample against its twin), technical pages
high/medium 0.667 (0.66: the library tracer's man pages and the vision library's CUDA class pages under the cut),
off-topic high/medium 5.7% (0.06: the password cracker's changelog and notes); traps below the median, false copy
flags (1.4%) and the copy to keep kept meet the targets. Since phase 16 it is training data (its floors stay where
phase 15 measured them, as regression floors).

``test12`` is the held-out split of phase 16: 20 sources labelled after test11 was scored (docs/perf.md, "test12"),
read by no training and no choice of the Vision, scored once by the merged phase 16. Its Debian part (194
documents: DPDK, KCachegrind, heaptrack, clpeak, SLEEF; HDF5, SDL, GLM, Postfix and Werkzeug mostly off-topic)
measured: relevance AUC 0.930 (floor 0.92), Spearman 0.429 (0.42: the profile viewer's translated handbooks read
low), near-copy recall 0.875 (0.87) and the copy to keep kept 0.900 (0.90: the mail server's plain-text READMEs,
rendered from its HTML pages, kept over them), false copy flags 3.2% (0.04: the same pairs, the other way round),
technical pages high/medium 0.733 (0.73: the packet kit's ring and tuning guides under the cut), off-topic
high/medium 8.6% (0.09: the graphics maths library's pages and the packet kit's FAQ and memory layer at medium);
traps below the median meet the target. Since phase 17 it is training data (its floors stay where phase 16
measured them, as regression floors). Its Debian part holds 30 technical and 12 administrative pages, so the size
check asks 30 and 10 (was 35 and 20).

``test13`` is the held-out split of phase 17: 20 sources labelled after test12 was scored (docs/perf.md, "test13"),
read by no training and no choice of the Vision, scored once by the merged phase 17. Its Debian part (164
documents: libstdc++'s parallel mode and atomics, Vc, libdrm, jemalloc, hipSPARSE's examples, ELPA; Django, SQLite,
LTTng and scikit-image off-topic) measured: relevance AUC 0.931 (floor 0.93), Spearman 0.322 (0.32: the driver
interface's B man pages valued near zero, the SIMD library's C examples near 60), traps below the median 0.976
(0.97: the eigensolver's changelog above the median), near-copy recall 0.769 (0.76) and the copy to keep kept 0.667
(0.66: which form of one text to keep, the database's changelog as text or as HTML, the image library's
contributing guide as text or as a page), false copy flags 3.3% (0.04: the C++ library's two index pages, a
tracer's man page against an event-rule page), technical pages high/medium 0.333 (0.33: the field's edge, the C++
library's concurrency and allocator pages, the allocator's manual and the driver's man pages, labelled technical
C, under the cut); off-topic high/medium (2.1%) meets the target. Since phase 18 it is training data (its floors
stay where phase 17 measured them, as regression floors).

``test14`` is the held-out split of phase 18: 20 sources labelled after test13 was scored (docs/perf.md, "test14"),
read by no training and no choice of the Vision, scored once by the merged phase 18. Its Debian part (173
documents: libflame's examples, libfabric's man pages, UCX's examples; SUNDIALS and VDPAU mixed; pytools, Raft,
HAProxy, Varnish and Celery off-topic) measured: relevance AUC 0.896 (floor 0.89), Spearman 0.550 (0.55), traps below
the median 0.939 (0.93: the linear-algebra library's and the solver suite's changelogs above the Debian median
technical value, 16), near-copy recall 0.893 (0.89: the rotation library's blocked variants and a Sphinx source
missed), technical pages high/medium 0.556 (0.55: the linear-algebra library's small examples and the communication
library's hello-world programs under the cut), off-topic high/medium 10.4% (0.11: the solver suite's parallel
modules, labelled off-topic, at medium); false copy flags (1.4%) and the copy to keep kept (1.0) meet the targets.
Since phase 19 it is training data (its floors stay where phase 18 measured them, as regression floors).

``test15`` is the held-out split of phase 19: 20 sources labelled after test14 was scored (docs/perf.md, "test15"),
read by no training and no choice of the Vision, scored once by the merged phase 19. Its Debian part (258
documents: the RDMA verbs man pages, an RDMA benchmark suite, a MapReduce-over-MPI library, an OpenCL device
simulator and a benchmark tool on topic; a finite-element library and an image library mixed; a messaging library,
a workflow engine and a request-tracing profiler off-topic) measured: relevance AUC 0.917 (floor 0.91), Spearman
0.380 (0.38: the verbs man pages valued 13-18, tier B), traps below the median 0.979 (0.97), near-copy recall 0.681
(0.68: changelogs installed once per binary package, sibling man and option pages of one template), false copy
flags 2.4% (0.03: two MapReduce pages, the simulator's kernel man page, the profiler's history and index pages),
the copy to keep kept 0.969 (0.96), technical pages high/medium 0.575 (0.57: the verbs man pages under the cut),
off-topic high/medium 9.4% (0.10: the MapReduce library's local key/value pages, the finite-element library's
module index, release changes, tutorial list and install page). Since phase 20 it is training data (its floors
stay where phase 19 measured them, as regression floors).

``test16`` is the held-out split of phase 20: 20 sources labelled after test15 was scored (docs/perf.md, "test16"),
read by no training and no choice of the Vision, scored once by the merged phase 20. Its Debian part (219
documents: GPU driver interface headers, a GPU sparse library's headers, a GPU FFT header, a SIMD storage library
and the SPIR-V headers on topic; a molecular-dynamics toolkit mixed; an asyncio web framework, a task-automation
tool, a fast-NumPy library and a finite-element form language off-topic) measured: relevance AUC 0.966 (floor
0.96), Spearman 0.429 (0.42: sixty technical pages, 56 of them C), traps below the median 1.0 (1.0), near-copy
recall 0.711 (0.71: one grammar's tables generated for six languages, Sphinx sources), false copy flags 2.2% (0.03:
a fast-NumPy library's reduce page and two release notes, a web framework's essays index), the copy to keep kept
0.921 (0.92), technical pages high/medium 0.783 (0.78: dispatch-table and generated macro headers, a SIMD library's
CRC headers under the cut), off-topic high/medium 1.4% (0.02: a force-field "kernel" interface header). Since
phase 21 it is training data (its floors stay where phase 20 measured them, as regression floors).

``test17`` is the held-out split of phase 21: 20 sources labelled after test16 was scored (docs/perf.md, "test17"),
read by no training and no choice of the Vision, scored once by the merged phase 21. Its Debian part (329
documents: a deep-learning framework's C++ and CUDA headers, an HPC benchmark suite, a high-bandwidth-memory
allocator, an inference engine's back-end interfaces, an HPC event-trace library and a GPU code-object manager on
topic; a workload manager, a C-to-WebAssembly compiler, an async web framework and a diffusion-MRI library
off-topic) measured: relevance AUC 0.924 (floor 0.92), Spearman 0.587 (0.58), traps below the median 1.0 (1.0),
near-copy recall 0.969 (0.96), false copy flags 2.7% (0.03: an HPC suite's man pages of one template, a web
framework's event-loop and queues pages), the copy to keep kept 0.906 (0.90), technical pages high/medium 0.745
(0.74: a trace library's whole manual and the benchmark's man pages under the cut), off-topic high/medium 7.1% (0.08:
the allocator's persistent-memory pages, the workload manager's job pages at medium). Since phase 22 it is training
data (its floors stay where phase 21 measured them, as regression floors), but for two of its copy floors: the benchmark's
four panel-factorisation man pages, labelled apart when held out, are copies of the one its index lists first
since phase 22 (LABELS.md), and the copies stage, with nothing newer, fuller or rendered to tell them apart, keeps
the one the crawl stored first, so its Debian figure reads 0.80 (floor 0.90 -> 0.80), and the page it keeps, labelled a
copy, counts as one copy missed (recall 0.943: floor 0.96 -> 0.94).

``test18`` is the held-out split of phase 22: 20 sources labelled after test17 was scored (docs/perf.md, "test18"),
read by no training and no choice of the Vision, scored once by the merged phase 22. Its Debian part (242
documents: a low-precision GEMM library, a deep-learning framework's tensor transport, a JIT assembler, a hardware-
trace decoder and an inference operator library's API on topic; a GPU visualisation library, an image-processing
library, eBPF tracing tools, a DNS server and a bioinformatics pipeline library mostly off-topic) measured: relevance
AUC 0.926 (floor 0.92), Spearman 0.633 (0.63), traps below the median 1.0 (1.0), near-copy recall 0.829 (0.82: a
tensor transport's factory headers differing by a namespace name), false copy flags 0.0% (0.01), the copy to keep
kept 1.0 (1.0), technical pages high/medium 0.774 (0.77: a trace decoder's manual and a visualisation library's
OpenGL pages under the cut), off-topic high/medium 2.6% (0.03: an eBPF profiler's man page at medium). Since phase 23
it is training data (its floors stay where phase 22 measured them, as regression floors).

``test19`` is the held-out split of phase 23: 20 sources labelled after test18 was scored (docs/perf.md, "test19"),
read by no training and no choice of the Vision, scored once by the merged phase 23. Its Debian part (231
documents: a parallel random-number library's examples in three languages, a GPU runtime's headers, a sparse FFT
with GPU back ends and MPI's process-management layer on topic; a graphics vector library, an image-feature
library, an image editor's help, a mail indexer, a CI system and a kernel-dump library mostly off-topic) measured:
relevance AUC 0.926 (floor 0.92), Spearman 0.551 (0.55), traps below the median 1.0 (1.0), near-copy recall 0.593
(0.59: the random-number library's Fortran examples, copies of its C ones; a sparse FFT's single-precision headers
beside the double ones), false copy flags 0.0% (0.01), the copy to keep kept 1.0 (1.0), technical pages high/medium
0.447 (0.44: the random-number library's MPI examples under the cut), off-topic high/medium 3.2% (0.04: the graphics
library's getting-started and troubleshooting pages). Since phase 24 it is training data (its floors stay where
phase 23 measured them, as regression floors).

``test20`` is the held-out split of phase 24: 20 sources labelled after test19 was scored (docs/perf.md, "test20"),
read by no training and no choice of the Vision, scored once by the merged phase 24. Its Debian part (236
documents: a VFX sparse-volume library's GPU variant, an HPC trace format's examples, a Fortran coarray runtime's
ABI, GCC's PTX tools, cache-partitioning tools and an MPI pytest plugin on topic; an image suite, a neuroimaging
pipeline framework, an SQL toolkit, a colour-management suite and the volume library's VFX core off-topic)
measured: relevance AUC 0.959 (floor 0.95), Spearman 0.219 (0.21: 45 of its 46 technical pages are tier C, so one
page moves it), traps below the median 1.0 (1.0), near-copy recall 0.912 (0.91: an image suite's web change log
found the wrong way round, an SQL toolkit's automodule source page), false copy flags 2.0% (0.02), the copy to keep
kept 0.966 (0.96), technical pages high/medium 0.717 (0.71: a trace format's example programs, an MPI test plugin's
pages), off-topic high/medium 7.0% (0.07: the volume library's VFX pages lifted toward its GPU pages). Since phase 25
it is training data (its floors stay where phase 24 measured them, as regression floors).

``test21`` is the held-out split of phase 25: 20 sources labelled after test20 was scored (docs/perf.md, "test21"),
read by no training and no choice of the Vision, scored once by the merged phase 25. Its Debian part (257
documents: a huge-page library, the OpenCL C headers, the SPIR-V tools, a rendering library's GPU API and a GPU
video library on topic; a kernel tracer, an OS tuning daemon, a name server, a cloud's compute service and an audio
environment off-topic) measured: relevance AUC 0.844 (floor 0.84), Spearman 0.425 (0.42), traps below the median
1.0 (1.0), near-copy recall 0.912 (0.91: a change log of include directives, tuning profiles' man pages made from one
another), false copy flags 1.8% (0.02), the copy to keep kept 1.0 (1.0), technical pages high/medium 0.593 (0.59:
huge-page man pages, the video and rendering libraries' headers), off-topic high/medium 15.4% (0.16: the tuning
daemon's profile pages, the video library's codec samples). Since phase 26 it is training data (its floors stay
where phase 25 measured them, as regression floors).

``test22`` is the held-out split of phase 26: 20 sources labelled after test21 was scored (docs/perf.md, "test22"),
read by no training and no choice of the Vision, scored once by the merged phase 26. Its Debian part (272
documents: a polyhedral compiler library, AMD's GPU driver thunk, the OpenCL loader, the SPIR-V LLVM translator and
a sparse-matrix library on topic; the Vulkan loader's headers, a frame profiler's examples, system statistics tools,
a web framework and a routing suite off-topic by count) measured: relevance AUC 0.871 (floor 0.87), Spearman 0.301
(0.30), traps below the median 1.0 (1.0), near-copy recall 0.800 (0.80: the polyhedral library's template-instance
headers, a shader pair, a macOS header written from the iOS one, an HTML page beside its man page), false copy flags
0.5% (0.01), the copy to keep kept 0.971 (0.97), technical pages high/medium 0.745 (floor 0.29, the in-sample
figure: see phase 27 below), off-topic high/medium 22.4% (0.23: the Vulkan loader's window-system and video-codec
headers and the frame profiler's demo programs, lifted toward their sources' GPU pages). Since phase 27 it is
training data (its floors stay where phase 26 measured them, as regression floors).

``test23`` is the held-out split of phase 27: 20 sources labelled after test22 was scored (docs/perf.md, "test23"),
read by no training and no choice of the Vision, scored once by the merged phase 27. Its Debian part (319 documents:
a graphics driver stack's documentation (its tracing and environment pages technical, its release notes
administrative), a shader compiler's and a shader cross-compiler's headers, a double-double arithmetic library and a
GPU agent enumerator on topic; a version-control system's manual, a scripting language's, a sound-synthesis
language's, a multiple-precision library's and a regular-expression engine's headers off-topic) measured: relevance
AUC 0.952 (floor 0.95), Spearman 0.279 (0.27: four tier-B pages among 52 technical, the rest C), traps below the
median 1.0 (1.0), near-copy recall 0.972 (0.97), false copy flags 1.1% (0.02), the copy to keep kept 0.969 (0.96: an
upload record kept from the other binary package), technical pages high/medium 0.635 (0.63: the arithmetic library's
example programs, figures and readme, the driver stack's tracing page, three of the shader compiler's pages),
off-topic high/medium 1.1% (0.02). Since phase 28 it is training data (its floors stay where phase 27 measured them,
as regression floors).

``test24`` is the held-out split of phase 28: 20 sources labelled after test23 was scored (docs/perf.md, "test24"),
read by no training and no choice of the Vision, scored once by the merged phase 28. Its Debian part (238 documents:
a GPU compiler's headers, a Vulkan helper library's class reference, a GPU video-effects library's headers, a
distributed-systems simulator's MPI wrappers and two GPU monitoring tools on topic; a linear-algebra library's
reference, a multimedia server's documentation, a template engine's manual and a multiple-precision Python library's
manual off-topic) measured: relevance AUC 0.923 (floor 0.92: the linear-algebra library's pages at medium for their
OpenMP settings), Spearman 0.348 (0.34: seven tier-B pages among 59 technical, the video library's commented headers
valued under their tier), traps below the median 1.0 (1.0), near-copy recall 0.956 (0.95: a simulator's man page of
one template, a multimedia server's example page repeating another), false copy flags 0.0% (0.01), the copy to keep
kept 1.000 (1.0), technical pages high/medium 0.695 (0.69: the Vulkan helper library's gtk-doc class pages, the
video library's headers, the Python library's floating-point pages), off-topic high/medium 2.7% (0.03). Since phase
29 it is training data (its floors stay where phase 28 measured them, as regression floors).

``test25`` is the held-out split of phase 29: 20 sources labelled after test24 was scored (docs/perf.md, "test25"),
read by no training and no choice of the Vision, scored once by the merged phase 29. Its Debian part (211 documents:
a user-space read-copy-update library's and a concurrency kit's atomics, fences and lock-free structures, a
compressed floating-point array library, a CPU-feature library and a JIT assembler on topic; a window and input
library's reference and four of an operating-system kernel's tools (a module builder, two crash-dump analysers, a
packet-filter suite) off-topic) measured: relevance AUC 0.977 (floor 0.97), Spearman 0.234 (0.23: the concurrency
kit's B pages on fences and atomics valued 13-24), traps below the median 1.0 (1.0), near-copy recall 0.364 (0.36:
the read-copy-update library's 32 example makefiles of one template, labelled one text across three folders, none
found), false copy flags 3.2% (0.04: the concurrency kit's man pages of one template that say different things), the
copy to keep kept 0.964 (0.96), technical pages high/medium 0.155 (0.15: the concurrency kit's 38 man pages and the
read-copy-update library's and the array library's examples read under the cut), off-topic high/medium 0.0% (0.02:
in sample, once trained on, two of the Debian half's 104 off-topic pages, the concurrency kit's container calls,
reach medium beside its technical atomics pages, 1.9%). Since phase 30 it is training data (its floors stay where
phase 29 measured them, as regression floors, the off-topic one a page higher).

``test26`` is the held-out split of phase 30: 20 sources labelled after test25 was scored (docs/perf.md, "test26"),
read by no training and no choice of the Vision, scored once by the merged phase 30. Its Debian part (291 documents:
an exchange format for neural networks, a shader compiler, the NVIDIA driver's X control library, a CPUID tool, a
half-precision header library, a thread pool and the Vulkan tools on topic; an operating-system kernel's asynchronous
I/O ring library, a persistent-memory library and a kernel-module tool off-topic) measured: relevance AUC 0.967 (floor
0.96), Spearman 0.499 (0.49: the driver control library's samples and the exchange format's headers valued under
their tier), traps below the median 1.0 (1.0), near-copy recall 1.000 (0.95), false copy flags 3.6% (0.04: the I/O
ring library's man pages of one template that document different calls), the copy to keep kept 1.000 (1.0),
technical pages high/medium 0.750 (0.75: the driver control library's samples and specification, three of the
exchange format's headers, the shader compiler's man page and header under the cut), off-topic high/medium 2.3%
(0.03). Since phase 31 it is training data (its floors stay where phase 30 measured them, as regression floors).

``test27`` is the held-out split of phase 31: 20 sources labelled after test26 was scored (docs/perf.md, "test27"),
read by no training and no choice of the Vision, scored once by the merged phase 31. Its Debian part (180 documents:
a portable SIMD header library, a Vulkan loader, an OpenCL compiler library, a SIMD JSON parser's header, the AMD
device libraries and five GPU and BLAS headers of a sparse solver suite on topic; the suite's other 65 headers, a
tracker-music library, a system stress tool, an SVM library's tools and an audio tool off-topic) measured: relevance
AUC 0.927 (floor 0.92), Spearman 0.435 (0.43), traps below the median 1.0 (1.0), near-copy recall 0.375 (0.37: the
solver suite's numeric and symbolic header pairs and the music library's C and C++ overviews and empty Doxygen stubs,
none found), false copy flags 1.7% (0.02), the copy to keep kept 0.875 (0.87), technical pages high/medium 0.900
(0.9), off-topic high/medium 33.8% (0.34: 48 of the solver suite's off-topic headers read medium or high, the
labelled set's precedent for a sparse solver being split). Since phase 32 it is training data (its floors stay where
phase 31 measured them, as regression floors). Phase 32 (rel35) read numerical libraries page by page (LABELS.md):
two of the suite's headers became technical, and with the sparse solve's task names as [general] terms 10 of its 12
technical pages read high/medium in sample (floor 0.9 -> 0.83).

``test28`` is the held-out split of phase 32: 20 sources labelled after test27 was scored (docs/perf.md, "test28"),
read by no training and no choice of the Vision, scored once by the merged phase 32. Its Debian part (234 documents
read: a fixed-point division header, the tensor exchange header, a CPU-features library, the video acceleration
API's headers and tool, and GLib's thread pages on topic; an async networking library, the sound library's
reference, the rest of GLib, an initramfs tool and a wavelet library off-topic) measured: relevance AUC 0.932
(floor 0.93), Spearman 0.590 (0.59), traps below the median 1.0 (1.0), near-copy recall 0.861 (0.86), false copy
flags 0.0% (0.02), the copy to keep kept 1.0 (1.0), technical pages high/medium 0.444 (0.44: GLib's thread pages and
the video API's headers under the cut), off-topic high/medium 2.7% (0.03). Since phase 33 it is training data (its
floors stay where phase 32 measured them, as regression floors). Since phase 34 (lab37's media-API rule, LABELS.md)
three of the video API's shim headers are off-topic: 15 technical pages.

``test29`` is the held-out split of phase 33: 20 sources labelled after test28 was scored (docs/perf.md, "test29"),
read by no training and no choice of the Vision, scored once by the merged phase 33. Its Debian part (262 documents
read: a vectorised maths library's headers, a SIMD vector-types library, a media driver's runtime header, a GPU
compiler's intrinsics headers, a message-passing library's man pages and a genome assembler's MPI design notes on
topic; a similarity-search library's headers, the assembler's other pages, a syscall-filter library, a BPF loader
library and a parallel I/O library off-topic) measured: relevance AUC 0.791 (floor 0.79), Spearman 0.424 (0.42),
traps below the median 1.0 (1.0), near-copy recall 0.333 (0.33: the maths library's template headers and examples
and one man page, none found), false copy flags 0.4% (0.02), the copy to keep kept 1.0 (1.0), technical pages
high/medium 0.557 (0.55: the message-passing man pages and the maths headers under the cut), off-topic high/medium
27.4% (0.28: 23 of the similarity-search library's 31 off-topic headers read medium or high). Since phase 34 it is
training data (its floors stay where phase 33 measured them, as regression floors).

``test30`` is the held-out split of phase 34: 20 sources labelled after test29 was scored (docs/perf.md, "test30"),
read by no training and no choice of the Vision, scored once by the merged phase 34. Its Debian part (224 documents
read: a JIT compiler library's Python tutorials and reference, a parallel sorting library's headers, an atomic
operations library, a GPU memory-layout library's headers and a virtual GPU renderer's header on topic, with a
scientific library's BLAS and IEEE headers and a keyed hash library's SIMD vector classes and benchmark timers; the
scientific library's other headers, the hash library's hash pages, a JSON library's reference, an event-loop library
and a subprocess pipeline library off-topic) measured: relevance AUC 0.866 (floor 0.86), Spearman 0.278 (0.27),
traps below the median 1.0 (1.0), near-copy recall 0.857 (0.85), false copy flags 1.5% (0.02), the copy to keep
kept 0.95 (0.95), technical pages high/medium 0.796 (0.79), off-topic high/medium 13.4% (0.14). Since phase 35 it is
training data (its floors stay where phase 34 measured them, as regression floors).

``test31`` is the held-out split of phase 35: 20 sources labelled after test30 was scored (docs/perf.md, "test31"),
read by no training and no choice of the Vision, scored once by the merged phase 35. Its Debian part (203 documents
read: a distributed sparse LU solver's and a parallel multigrid solver's GPU-offload and execution headers, a
lock-free queue, a memory allocator and an arbitrary-precision library's page on representation on topic; the two
solvers' other headers, a coroutine library, a compression wrapper, a scientific file format, a record/replay
debugger and the precision library's other pages off-topic; a GPU stack's CMake modules administrative) measured:
relevance AUC 0.926 (floor 0.92), Spearman 0.677 (0.67), traps below the median 1.0 (1.0), near-copy recall 0.938
(0.93), false copy flags 1.8% (0.02), the copy to keep kept 1.0 (1.0), technical pages high/medium 0.800 (0.8),
off-topic high/medium 12.4% (0.13). Since phase 36 it is training data (its floors stay where phase 35 measured
them, as regression floors).

Phase 11 (rel12: the learned topic probability counts in full only where the profile's terms find the topic,
``topic.evidence_weight``) lowers two in-sample AUC floors: with a model retrained on the ten training splits, the
Debian part of test2 measures 0.986 (floor 0.99 -> 0.98) and of test3 0.965 (0.98 -> 0.96). In sample the learned
probability was fitted on these very pages, and it now counts less where their profile evidence is thin; out of
fold, the figures that judge a change, test3's AUC (all origins) stays 0.952 and test2's falls 0.964 -> 0.956, the worst
split's (test6, 0.9388) does not move, and the worst split's off-topic share falls 12.3% -> 10.4%.

Phase 12 (test9 joins training) lowers two more: the medium cut is calibrated so that 5% of the training folds'
off-topic pages reach it, and test9 brings off-topic pages that read high (array-library and container pages of
HPC), so the cut rises (0.2415 -> 0.2537) and Debian technical pages just under it fall to low: test6's Debian part
measures 0.656 technical high/medium (floor 0.67 -> 0.65), test8's 0.793 (the target 0.8 -> 0.79).

Phase 13 lowers one more (rel14: the platforms' names, GPU, CUDA, MPI, OpenMP, HPC, are general terms that confirm
the field and no longer make it): test6's Debian part measures 0.639 technical high/medium (floor 0.65 -> 0.63),
its pages of a sparse-matrix library and a subdivision library that speak mostly of MPI and the GPU falling under
a medium cut that fell with the off-topic tail (0.2540 -> 0.2354). It is the trade docs/perf.md states for rel14:
out of fold, test9's off-topic share 12.9% -> 4.0% and the worst AUC 0.919 -> 0.934, test6's technical share
0.780 -> 0.742.

Phase 14 (test10 joins training) lowers one more: the medium cut is calibrated so that 5% of the training folds'
off-topic pages reach it, and test10's off-topic pages read low, so the cut falls (0.2354 -> 0.2284) and test3's
Debian off-topic share reaches 5.8% (4 of 69; the target 0.05 -> 0.06). Phase 16 (test11 joins training) moves it
once more, the same way: the cut falls 0.2070 -> 0.2038 and test3's Debian part reads 5 of 69 off-topic pages at
medium (7.2%; floor 0.06 -> 0.08); with the phase 15 model it read 5.8%.

Phase 15 lowers one more (rel16: a source draws a page above its floor down by half the gap, not 0.3 of it): with a
model retrained on the twelve training splits (medium cut 0.2290 -> 0.2070), test3's Debian part measures AUC 0.9599
(floor 0.96 -> 0.95): an OS kernel's GPU-driver pages, technical, sit in a source whose other pages are off topic and
are drawn further down. Out of fold test3's AUC (all origins) falls 0.9565 -> 0.9536, the only split that falls; the
mean over the twelve rises 0.9666 -> 0.9699 and the worst 0.9402 -> 0.9410 (docs/perf.md).

``dev`` keeps its floors of phase 1: the issue's targets, two lower where dev's Debian part misses them
(technical high/medium 0.6, measured 0.796 in phase 4; traps 0.9, measured 1.0).

Phase 19 (the protocol that made test14 training data, the model retrained on sixteen splits) lowers two in-sample
floors: its medium cut, calibrated on the out-of-fold relevance of sixteen splits' off-topic pages (test14's among
them), rises 0.2187 → 0.2297, and the computer-vision library's parallel-for tutorial (technical C, 0.222)
falls under it: test11's technical high/medium falls to 0.641 (floor 0.66 → 0.64); and the OpenMP instrumenter's
NEWS page sits at test6's median technical value (19), no longer below it: traps 1.0 → 0.974 (floor 0.97).

Phase 23 (the protocol that made test18 training data, the model retrained on twenty splits) lowers one: the `test`
split's Debian relevance AUC reads 0.97998 in sample (floor 0.98 → 0.979), where the nineteen-split model read
0.9823 (rel23's profile change, reverted in phase 22, fell under the same floor at 0.9788).

Phase 27 (the protocol that made test22 training data, the model retrained on twenty-four splits) lowers three.
test22's own Debian technical share reads 0.291 in sample, far under the 0.745 it read held out (floor 0.29, not
0.74): its Debian sources mix technical and off-topic pages (the Vulkan loader's core headers beside its
window-system and video-codec headers, the polyhedral library's scheduling headers beside its generic template
headers), and once trained on them the word models read each source's own words as its off-topic pages' words. The
ranking improves (Debian AUC 0.871 held out, 0.958 in sample; off-topic 22.4% → 0%) while the technical pages fall
under the cut (medium 0.2242 → 0.2257): a learned model that recognises a source rather than a subject, left for
the next phase. test21's Debian technical share falls to 0.537 (floor 0.59 → 0.53; its huge-page pages), and the
`test` split's Debian relevance AUC reads 0.9771 (floor 0.979 → 0.977).

Phase 28 (the protocol that made test23 training data, the model retrained on twenty-five splits) lowers one: test21's
Debian technical share reads 0.519 in sample (floor 0.53 → 0.51). Phase 27's video-coding terms (rel29) read three
of its GPU video library's example pages, labelled technical, as another field's; out of fold its Debian technical
share fell 0.556 → 0.500 while its off-topic share fell 5.7% → 4.0% (docs/perf.md, "rel29").

Phase 29 (the protocol that made test24 training data, the model retrained on twenty-six splits) lowers one: test7's
Debian off-topic share reads 6.1% in sample (floor 0.05 → 0.07). With test24's pages in training the medium cut falls
0.2286 → 0.2226, and four of test7's 66 off-topic Debian pages reach it, one more than before (three of a sparse
solver's source listings at 0.24-0.35, a memory checker's no-op tool page at 0.24); held out in phase 8 it read 4.5%.

Phase 34 (the protocol that made test29 training data, the model retrained on thirty-one splits) lowers one: test24's
Debian Spearman reads 0.322 in sample (floor 0.33 → 0.31), and 0.318 once lab37's 18 relabelled pages were trained
on. Its 59 technical Debian pages hold seven of tier B; the value model, refitted with test29's 334 technical pages
(131 of them Debian, mostly C-tier man pages and headers), reorders a few of its B and C headers; held out in phase
28 it read 0.348.

Phase 35 (the protocol that made test30 training data, the model retrained on thirty-two splits) lowers one: the
`test` split's Debian relevance AUC reads 0.9765 in sample (floor 0.977 → 0.976; 0.9771 in phase 27, where the floor
was set). The word models, refitted with test30's 601 pages, swap a few of its technical and off-topic pages' order by
a hair; every other floor holds.

Phase 36 (the protocol that made test31 training data, the model retrained on thirty-three splits) lowers one:
test28's Debian Spearman reads 0.581 in sample (floor 0.59 → 0.58; 0.600 with phase 35's model). Its Debian part
holds 15 technical pages valued 2 to 60, and the refitted value model moves each by at most two points: the x86
feature header (B) falls from 24, level with GLib's thread page (C, 24), to 23, under it: that tie turned into a
discordant pair is most of the change. Every other floor holds.
"""

from __future__ import annotations

import pytest

from pipeline.score import score_corpus
from pipeline.vision.evaluate import TARGETS, metrics, score_labelled
from pipeline.vision.labelled import load_documents, load_labels
from pipeline.vision.splits import select

FLOORS = {
    "test": {
        **TARGETS,
        "relevance_auc": (">=", 0.976),
        "spearman": (">=", 0.55),
        "copy_recall": (">=", 0.92),
        "false_flags": ("<=", 0.03),
    },
    "test2": {
        **TARGETS,
        "relevance_auc": (">=", 0.98),  # phase 11: 0.986 (the docstring's last paragraph)
        "spearman": (">=", 0.46),
        "false_flags": ("<=", 0.03),
        "newer_kept": (">=", 0.93),
        "technical_high_medium": (">=", 0.82),
    },
    "test3": {
        **TARGETS,
        "traps_below_median": (">=", 0.97),
        "relevance_auc": (">=", 0.95),  # phase 15: 0.9599 (the docstring, phase 15 paragraph)
        "spearman": (">=", 0.50),
        "copy_recall": (">=", 0.93),
        "technical_high_medium": (">=", 0.58),
        "off_high_medium": ("<=", 0.08),  # phase 16: 0.072 (the docstring, phase 14 paragraph)
    },
    "test4": {
        **TARGETS,
        "relevance_auc": (">=", 0.98),
        "spearman": (">=", 0.45),
        "traps_below_median": (">=", 0.92),
        "technical_high_medium": (">=", 0.51),
    },
    "test5": {
        **TARGETS,
        "relevance_auc": (">=", 0.90),
        "spearman": (">=", 0.16),
        "traps_below_median": (">=", 0.91),
        "copy_recall": (">=", 0.83),
        "false_flags": ("<=", 0.03),
        "technical_high_medium": (">=", 0.56),
    },
    "test6": {
        **TARGETS,
        "relevance_auc": (">=", 0.87),
        "spearman": (">=", 0.43),
        "traps_below_median": (">=", 0.97),  # phase 19: 0.974 (the docstring's last paragraph)
        "false_flags": ("<=", 0.03),
        "technical_high_medium": (">=", 0.63),  # phase 13: 0.639 (the docstring's last paragraph)
        "off_high_medium": ("<=", 0.14),
    },
    "test7": {
        **TARGETS,
        "relevance_auc": (">=", 0.89),
        "spearman": (">=", 0.28),
        "copy_recall": (">=", 0.63),
        "newer_kept": (">=", 0.94),
        "technical_high_medium": (">=", 0.53),
        # phase 31 (rel34): 0.07 -> 0.08, Debian 0.061 -> 0.076 in sample (one page of 66) when the retrain's medium
        # cut fell 0.2176 -> 0.2112 (the proof VM's and the terminal's pages no longer hold it up); AUC 0.973 -> 0.974
        "off_high_medium": ("<=", 0.08),
    },
    "test8": {
        **TARGETS,
        "spearman": (">=", 0.59),
        "copy_recall": (">=", 0.64),
        "newer_kept": (">=", 0.93),
        "technical_high_medium": (">=", 0.79),  # phase 12: 0.793 (the docstring's last paragraph)
    },
    "test9": {
        **TARGETS,
        "relevance_auc": (">=", 0.55),
        "spearman": (">=", 0.44),
        "traps_below_median": (">=", 0.87),
        "newer_kept": (">=", 0.95),
        "technical_high_medium": (">=", 0.33),
        "off_high_medium": ("<=", 0.23),
    },
    "test10": {
        **TARGETS,
        "relevance_auc": (">=", 0.88),
        "copy_recall": (">=", 0.88),
        "technical_high_medium": (">=", 0.6),
        "off_high_medium": ("<=", 0.07),
    },
    "test11": {
        **TARGETS,
        "relevance_auc": (">=", 0.90),
        "spearman": (">=", 0.54),
        "copy_recall": (">=", 0.92),
        "technical_high_medium": (">=", 0.64),  # phase 19: 0.641 (the docstring's last paragraph)
        "off_high_medium": ("<=", 0.06),
    },
    "test12": {
        **TARGETS,
        "relevance_auc": (">=", 0.92),
        "spearman": (">=", 0.42),
        "copy_recall": (">=", 0.87),
        "false_flags": ("<=", 0.04),
        "newer_kept": (">=", 0.90),
        "technical_high_medium": (">=", 0.73),
        "off_high_medium": ("<=", 0.09),
    },
    "test13": {
        **TARGETS,
        "relevance_auc": (">=", 0.93),
        "spearman": (">=", 0.32),
        "traps_below_median": (">=", 0.97),
        "copy_recall": (">=", 0.76),
        "false_flags": ("<=", 0.04),
        "newer_kept": (">=", 0.66),
        "technical_high_medium": (">=", 0.33),
    },
    "test14": {
        **TARGETS,
        "relevance_auc": (">=", 0.89),
        "spearman": (">=", 0.55),
        "traps_below_median": (">=", 0.93),
        "copy_recall": (">=", 0.89),
        "technical_high_medium": (">=", 0.55),
        "off_high_medium": ("<=", 0.11),
    },
    "test15": {
        **TARGETS,
        "relevance_auc": (">=", 0.91),
        "spearman": (">=", 0.38),
        "traps_below_median": (">=", 0.97),
        "copy_recall": (">=", 0.68),
        "false_flags": ("<=", 0.03),
        "newer_kept": (">=", 0.96),
        "technical_high_medium": (">=", 0.57),
        "off_high_medium": ("<=", 0.10),
    },
    "test16": {
        **TARGETS,
        "relevance_auc": (">=", 0.96),
        "spearman": (">=", 0.42),
        "traps_below_median": (">=", 1.0),
        "copy_recall": (">=", 0.71),
        "false_flags": ("<=", 0.03),
        "newer_kept": (">=", 0.92),
        "technical_high_medium": (">=", 0.78),
        "off_high_medium": ("<=", 0.02),
    },
    "test17": {
        **TARGETS,
        "relevance_auc": (">=", 0.92),
        "spearman": (">=", 0.58),
        "traps_below_median": (">=", 1.0),
        "copy_recall": (">=", 0.94),
        "false_flags": ("<=", 0.03),
        "newer_kept": (">=", 0.80),
        "technical_high_medium": (">=", 0.74),
        "off_high_medium": ("<=", 0.08),
    },
    "test18": {
        **TARGETS,
        "relevance_auc": (">=", 0.92),
        "spearman": (">=", 0.63),
        "traps_below_median": (">=", 1.0),
        "copy_recall": (">=", 0.82),
        "false_flags": ("<=", 0.01),
        "newer_kept": (">=", 1.0),
        "technical_high_medium": (">=", 0.77),
        "off_high_medium": ("<=", 0.03),
    },
    "test19": {
        **TARGETS,
        "relevance_auc": (">=", 0.92),
        "spearman": (">=", 0.55),
        "traps_below_median": (">=", 1.0),
        "copy_recall": (">=", 0.59),
        "false_flags": ("<=", 0.01),
        "newer_kept": (">=", 1.0),
        "technical_high_medium": (">=", 0.44),
        "off_high_medium": ("<=", 0.04),
    },
    "test20": {
        **TARGETS,
        "relevance_auc": (">=", 0.95),
        "spearman": (">=", 0.21),
        "traps_below_median": (">=", 1.0),
        "copy_recall": (">=", 0.91),
        "false_flags": ("<=", 0.02),
        "newer_kept": (">=", 0.96),
        "technical_high_medium": (">=", 0.71),
        "off_high_medium": ("<=", 0.07),
    },
    "test21": {
        **TARGETS,
        "relevance_auc": (">=", 0.84),
        "spearman": (">=", 0.42),
        "traps_below_median": (">=", 1.0),
        "copy_recall": (">=", 0.91),
        "false_flags": ("<=", 0.02),
        "newer_kept": (">=", 1.0),
        "technical_high_medium": (">=", 0.51),
        "off_high_medium": ("<=", 0.16),
    },
    "test22": {
        **TARGETS,
        "relevance_auc": (">=", 0.87),
        "spearman": (">=", 0.30),
        "traps_below_median": (">=", 1.0),
        "copy_recall": (">=", 0.80),
        "false_flags": ("<=", 0.01),
        "newer_kept": (">=", 0.97),
        "technical_high_medium": (">=", 0.29),
        "off_high_medium": ("<=", 0.23),
    },
    "test23": {
        **TARGETS,
        "relevance_auc": (">=", 0.95),
        "spearman": (">=", 0.27),
        "traps_below_median": (">=", 1.0),
        "copy_recall": (">=", 0.97),
        "false_flags": ("<=", 0.02),
        "newer_kept": (">=", 0.96),
        "technical_high_medium": (">=", 0.63),
        "off_high_medium": ("<=", 0.02),
    },
    "test24": {
        **TARGETS,
        "relevance_auc": (">=", 0.92),
        # phase 30 (rel33): 0.34 -> 0.33, the retrain with the memory-ordering and synthesis terms reads 0.339 (0.342
        # before): the value model's profile inputs moved, no value target was aimed at (docs/perf.md)
        "spearman": (">=", 0.31),
        "traps_below_median": (">=", 1.0),
        "copy_recall": (">=", 0.95),
        "false_flags": ("<=", 0.01),
        "newer_kept": (">=", 1.0),
        "technical_high_medium": (">=", 0.69),
        "off_high_medium": ("<=", 0.03),
    },
    "test25": {
        **TARGETS,
        "relevance_auc": (">=", 0.97),
        "spearman": (">=", 0.23),
        "traps_below_median": (">=", 1.0),
        "copy_recall": (">=", 0.36),
        "false_flags": ("<=", 0.04),
        "newer_kept": (">=", 0.96),
        "technical_high_medium": (">=", 0.15),
        "off_high_medium": ("<=", 0.02),
    },
    "test26": {
        **TARGETS,
        "relevance_auc": (">=", 0.96),
        "spearman": (">=", 0.49),
        "traps_below_median": (">=", 1.0),
        "false_flags": ("<=", 0.04),
        "newer_kept": (">=", 1.0),
        "technical_high_medium": (">=", 0.75),
        "off_high_medium": ("<=", 0.03),
    },
    "test27": {
        **TARGETS,
        "relevance_auc": (">=", 0.92),
        "spearman": (">=", 0.43),
        "traps_below_median": (">=", 1.0),
        "copy_recall": (">=", 0.37),
        "false_flags": ("<=", 0.02),
        "newer_kept": (">=", 0.87),
        "technical_high_medium": (">=", 0.83),
        "off_high_medium": ("<=", 0.34),
    },
    "test28": {
        **TARGETS,
        "relevance_auc": (">=", 0.93),
        "spearman": (">=", 0.58),  # phase 36: 0.581 in sample (the docstring's last paragraph)
        "traps_below_median": (">=", 1.0),
        "copy_recall": (">=", 0.86),
        "false_flags": ("<=", 0.02),
        "newer_kept": (">=", 1.0),
        "technical_high_medium": (">=", 0.44),
        "off_high_medium": ("<=", 0.03),
    },
    "test29": {
        **TARGETS,
        "relevance_auc": (">=", 0.79),
        "spearman": (">=", 0.42),
        "traps_below_median": (">=", 1.0),
        "copy_recall": (">=", 0.33),
        "false_flags": ("<=", 0.02),
        "newer_kept": (">=", 1.0),
        "technical_high_medium": (">=", 0.55),
        "off_high_medium": ("<=", 0.28),
    },
    "test30": {
        **TARGETS,
        "relevance_auc": (">=", 0.86),
        "spearman": (">=", 0.27),
        "traps_below_median": (">=", 1.0),
        "copy_recall": (">=", 0.85),
        "false_flags": ("<=", 0.02),
        "newer_kept": (">=", 0.95),
        "technical_high_medium": (">=", 0.79),
        "off_high_medium": ("<=", 0.14),
    },
    "test31": {
        **TARGETS,
        "relevance_auc": (">=", 0.92),
        "spearman": (">=", 0.67),
        "traps_below_median": (">=", 1.0),
        "copy_recall": (">=", 0.93),
        "false_flags": ("<=", 0.02),
        "newer_kept": (">=", 1.0),
        "technical_high_medium": (">=", 0.8),
        "off_high_medium": ("<=", 0.13),
    },
    "dev": {**TARGETS, "technical_high_medium": (">=", 0.6), "traps_below_median": (">=", 0.9)},
}
MIN_DOCUMENTS = 80  # fewer read means the Debian packages are missing: apt-get install $(tools/vision_packages.py)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=sorted(FLOORS))
def figures(request, tmp_path_factory):
    split = request.param
    labels = [label for label in select(load_labels(), split) if label.origin == "debian"]
    loaded, report = load_documents(labels)
    if report.loaded < MIN_DOCUMENTS:
        pytest.skip(
            f"only {report.summary()}: install the Debian documentation packages "
            "(apt-get install $(python3 tools/vision_packages.py))"
        )
    ids, outcomes = score_labelled(loaded, score_corpus, tmp_path_factory.mktemp(f"vision-{split}"))
    result = metrics(labels, ids, outcomes)
    print(split, report.summary(), {k: v for k, v in result.items() if isinstance(v, float)})
    return split, result


# test27's and test28's Debian parts hold 12 and 15 technical pages: label29 and label30 found few on-topic Debian
# packages left unlabelled (test28's were 18 until lab37's media-API rule set three shim headers off); test31's holds
# 25 technical and 9 administrative pages (label33 passed over the on-topic packages it found as parts or forerunners
# of labelled sources)
FEW_TECHNICAL = {"test27": 12, "test28": 15, "test31": 25}
FEW_ADMIN = {"test31": 9}


def test_the_split_holds_what_the_floors_need(figures):
    split, result = figures
    counts = result["counts"]
    # 30 technical, 10 admin: test12's Debian part, mostly off-topic packages around a packet kit and profilers,
    # holds 30 and 12
    assert counts["technical"] >= FEW_TECHNICAL.get(split, 30) and counts["admin"] >= FEW_ADMIN.get(split, 10)
    assert counts["off"] >= 15
    assert result["traps"] >= 5 and result["copy_pairs"] >= 1


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_floor(figures, name):
    split, result = figures
    op, floor = FLOORS[split][name]
    value = result[name]
    assert value is not None and (value >= floor if op == ">=" else value <= floor), (
        f"{split}: {name} = {value}, floor {op} {floor}"
    )
