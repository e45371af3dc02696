package cogs.savina.concsll

import cogs.runtime.CogRuntime
import cogs.savina.{Rand, SavinaBenchmark}
import org.apache.pekko.actor.ActorSystem

/** The parameters of [[SortedList]]. */
final case class Params(workers: Int, messagesPerWorker: Int, writePercent: Int, sizePercent: Int) {
  require(workers >= 1 && messagesPerWorker >= 0 && writePercent >= 0 && sizePercent >= 0 && writePercent + sizePercent <= 100,
    s"bad parameters $this")
  override def toString = s"workers=$workers messages=$messagesPerWorker writes=$writePercent% sizes=$sizePercent%"
}

/** Replies the workers got, and the final list: its size and a digest of its elements in order. */
final case class ListAnswer(replies: Long, finalSize: Int, digest: Long) {
  override def toString = s"$replies replies, final size $finalSize, digest ${java.lang.Long.toHexString(digest)}"
}

/**
 * Savina's `concsll`: `workers` workers send a sorted linked list actor `messagesPerWorker`
 * requests each, one at a time: `writePercent`% inserts, `sizePercent`% size queries, the rest
 * membership tests, all of random values. Inserting and testing walk the list, so the cost grows
 * with it. What a test or a size query answers depends on the interleaving; the final list does
 * not: it is checked against the sorted values the workers inserted.
 */
object SortedList extends SavinaBenchmark[Params, ListAnswer] {
  val name = "concsll"
  val title = "Concurrent Sorted Linked-List"
  val defaults: Params = Params(workers = 20, messagesPerWorker = 8000, writePercent = 10, sizePercent = 1)
  val quick: Params = Params(workers = 10, messagesPerWorker = 2000, writePercent = 10, sizePercent = 1)

  final val Write = 0
  final val Size = 1
  final val Contains = 2

  /** Worker `id`'s requests: (kind, value). */
  final class Requests(p: Params, id: Int) {
    private[this] val random = new Rand(id + p.messagesPerWorker + p.writePercent + p.sizePercent)
    def next(): (Int, Int) = {
      val r = random.nextInt(100)
      if (r < p.sizePercent) (Size, 0)
      else if (r < p.sizePercent + p.writePercent) (Write, random.nextInt(Int.MaxValue))
      else (Contains, random.nextInt(Int.MaxValue))
    }
  }

  /** A sorted singly linked list of ints (duplicates kept), walked from the head as in Savina. */
  final class LinkedIntList {
    private final class Node(val value: Int, var next: Node)
    private[this] var head: Node = _
    private[this] var count = 0

    def add(v: Int): Unit = {
      if ((head eq null) || v <= head.value) head = new Node(v, head)
      else {
        var n = head
        while ((n.next ne null) && n.next.value < v) n = n.next
        n.next = new Node(v, n.next)
      }
      count += 1
    }

    def contains(v: Int): Boolean = {
      var n = head
      while ((n ne null) && n.value < v) n = n.next
      (n ne null) && n.value == v
    }

    def size: Int = count

    def digest: Long = {
      var h = 1125899906842597L
      var n = head
      while (n ne null) { h = h * 31 + n.value; n = n.next }
      h
    }
  }

  def expected(p: Params): ListAnswer = {
    val values = Array.newBuilder[Int]
    for (w <- 0 until p.workers) {
      val rs = new Requests(p, w)
      for (_ <- 0 until p.messagesPerWorker) { val (k, v) = rs.next(); if (k == Write) values += v }
    }
    val sorted = values.result().sorted
    var h = 1125899906842597L
    sorted.foreach(v => h = h * 31 + v)
    ListAnswer(p.workers.toLong * p.messagesPerWorker, sorted.length, h)
  }

  def runCogs(rt: CogRuntime, p: Params): ListAnswer = SortedListCogs.run(rt, p)
  def runPekko(system: ActorSystem, p: Params): ListAnswer = SortedListPekko.run(system, p)
}
