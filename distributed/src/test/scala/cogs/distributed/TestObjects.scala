package cogs.distributed

import cogs.runtime._

/** A value that travels (Jackson CBOR). */
final case class Point(x: Int, y: Int, label: String) extends Wire

/** A value that does not: no Wire mark, no binding. */
final case class Opaque(n: Int)

/** A user's exception that travels (Wire, a case class): caught by its type on the caller's node. */
final case class OutOfStock(item: String, left: Int) extends RuntimeException(s"out of $item ($left left)") with Wire

/** The remote object of the tests: state, ordering records, a gate to wait on, failures. */
final class Store(start: Int) extends ActiveObject {
  override def toString = "Store"
  private[this] var total = start
  // Per sender: the last sequence number seen, and how many arrived out of order.
  private[this] val last = scala.collection.mutable.HashMap.empty[Int, Int]
  private[this] var outOfOrder = 0
  private[this] var received = 0
  private[this] var open = false
  private[this] var waiting = 0

  def add(k: Int): Proc[Int] = Proc.delay { total += k; total }
  def total(): Proc[Int] = Proc.delay(total)
  def move(p: Point, dx: Int): Proc[Point] = Proc.delay(p.copy(x = p.x + dx, label = p.label + "!"))
  def echo(v: Any): Proc[Any] = Proc.done(v)
  def leak(): Proc[Any] = Proc.done(Opaque(7))
  def big(n: Int): Proc[String] = Proc.delay("x" * n)
  def fail(msg: String): Proc[Int] = Proc.raise(new IllegalArgumentException(msg))
  def outOfStock(item: String): Proc[Int] = Proc.delay(throw OutOfStock(item, total))
  def refuseJava(msg: String): Proc[Int] = Proc.raise(new JavaRefusal(msg))
  def unreadable(k: Int): Proc[Int] = Proc.raise(new JavaUnreadable(k))
  /** What this call's process has left of its deadline (Timed ABS `deadline()`), or "none". */
  def deadlineLeft(): Proc[String] = Proc.delay(Cogs.deadline.fold("none")(_.toString))

  /** Records one call of an ordered sequence. */
  def append(sender: Int, seq: Int): Proc[Unit] = Proc.delay {
    received += 1
    val prev = last.getOrElse(sender, -1)
    if (seq != prev + 1) outOfOrder += 1
    last(sender) = seq
  }
  def orderReport(): Proc[String] = Proc.delay(s"received=$received outOfOrder=$outOfOrder senders=${last.size}")

  /** Waits (suspended, on this node) until `openGate` is called; returns the number of waiters released. */
  def waitOpen(): Proc[Int] = Proc.delay(waiting += 1) >> Proc.await(Guard.cond(open)).map(_ => waiting)
  def waiters(): Proc[Int] = Proc.delay(waiting)
  def openGate(): Proc[Unit] = Proc.delay { open = true }
}

/** A local object that calls a remote one, to show what `await` and `get` hold. */
final class Client(store: RemoteRef) extends ActiveObject {
  override def toString = "Client"
  val log = new java.util.concurrent.ConcurrentLinkedQueue[String]()
  def awaitGate(): Proc[Int] = Proc.await(store.send[Int]("waitOpen")).map { n => log.add("awaitGate done"); n }
  def getGate(): Proc[Int] = Proc.get(store.send[Int]("waitOpen")).map { n => log.add("getGate done"); n }
  def note(s: String): Proc[Unit] = Proc.delay { log.add(s); () }
  /** `n` calls in a row without waiting, then waits for all: the order test's sender. */
  def burst(sender: Int, n: Int): Proc[Int] = {
    Proc.delay((0 until n).map(i => store.send[Unit]("append", sender, i)).toList)
      .flatMap(fs => Proc.awaitAll(fs)).map(_.size)
  }
  /** `n - 1` one-way calls and, last, one awaited call of the same sequence (order across both kinds). */
  def tellBurst(sender: Int, n: Int): Proc[Int] =
    Proc.delay((0 until n - 1).foreach(i => store.tell("append", sender, i)))
      .flatMap(_ => Proc.await(store.send[Unit]("append", sender, n - 1))).map(_ => n)
  /** `n` calls one after the other, each awaited before the next: the hand-off stress. */
  def chain(n: Int): Proc[Int] = {
    var i = 0
    var sum = 0
    Proc.loopWhile(i < n)(Proc.await(store.send[Int]("add", 1)).map { _ => sum += 1; i += 1 }).map(_ => sum)
  }
}

/** Takes references made by other nodes and calls through them (references passed on). */
final class Relay extends ActiveObject {
  override def toString = "Relay"
  def addVia(store: RemoteRef, k: Int): Proc[Int] = Proc.await(store.send[Int]("add", k))
  def same(r: RemoteRef): Proc[RemoteRef] = Proc.done(r)
}
