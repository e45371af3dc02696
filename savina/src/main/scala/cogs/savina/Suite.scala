package cogs.savina

/** The Savina suite: its 30 benchmarks in the order of the Savina paper, and those implemented here. */
object Suite {

  /** Savina's short name (its folder) and title, in the paper's order: micro, concurrency, parallelism. */
  val savina: List[(String, String)] = List(
    "pingpong" -> "Ping Pong",
    "count" -> "Counting Actor",
    "fjcreate" -> "Fork Join (actor creation)",
    "fjthrput" -> "Fork Join (throughput)",
    "threadring" -> "Thread Ring",
    "chameneos" -> "Chameneos",
    "big" -> "Big",
    "concdict" -> "Concurrent Dictionary",
    "concsll" -> "Concurrent Sorted Linked-List",
    "bndbuffer" -> "Producer-Consumer with Bounded Buffer",
    "philosopher" -> "Dining Philosophers",
    "barber" -> "Sleeping Barber",
    "cigsmok" -> "Cigarette Smokers",
    "logmap" -> "Logistic Map Series",
    "banking" -> "Bank Transaction",
    "radixsort" -> "Radix Sort",
    "filterbank" -> "Filter Bank",
    "sieve" -> "Sieve of Eratosthenes",
    "uct" -> "Unbalanced Cobwebbed Tree",
    "facloc" -> "Online Facility Location",
    "trapezoid" -> "Trapezoidal Approximation",
    "piprecision" -> "Precise Pi Computation",
    "recmatmul" -> "Recursive Matrix Multiplication",
    "quicksort" -> "Quicksort",
    "apsp" -> "All-Pairs Shortest Path",
    "sor" -> "Successive Over-Relaxation",
    "astar" -> "A-Star Search",
    "nqueenk" -> "N-Queens (first K solutions)",
    "fib" -> "Fibonacci",
    "bitonicsort" -> "Bitonic Sort"
  )

  /** The implemented benchmarks (each on both runtimes), in Savina's order. */
  val implemented: List[Benchmark] = {
    val mine: List[Benchmark] = List(
      nqueenk.NQueens,
      pingpong.PingPong,
      count.Counting,
      threadring.ThreadRing,
      fjcreate.ForkJoinCreate,
      fjthrput.ForkJoinThroughput,
      chameneos.Chameneos,
      big.Big,
      fib.Fibonacci,
      barber.SleepingBarber,
      philosopher.Philosophers,
      banking.Banking,
      bndbuffer.ProducerConsumer,
      cigsmok.CigaretteSmokers,
      logmap.LogisticMap,
      trapezoid.Trapezoidal,
      concdict.Dictionary,
      concsll.SortedList,
      sieve.Sieve,
      radixsort.RadixSort,
      quicksort.QuickSort,
      piprecision.PiPrecision,
      recmatmul.MatMul,
      apsp.Apsp,
      filterbank.FilterBank, uct.Uct, facloc.FacilityLocation,
      sor.Sor, astar.AStar, bitonicsort.BitonicSort
    )
    val order = savina.map(_._1).zipWithIndex.toMap
    mine.sortBy(b => order.getOrElse(b.name, Int.MaxValue))
  }

  def find(name: String): Option[Benchmark] = implemented.find(_.name == name)

  /** Savina names that are not implemented yet. */
  def missing: List[String] = savina.map(_._1).filterNot(n => implemented.exists(_.name == n))
}
