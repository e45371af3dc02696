package cogs.runtime

import java.util.concurrent.atomic.AtomicInteger
import scala.collection.mutable.ArrayBuffer

/** Small active objects shared by the tests. */
object TestObjects {
  trait Cell extends Active {
    def set(v: Int): Proc[Unit]
    def get(): Proc[Int]
    def awaitAtLeast(v: Int): Proc[Int]
  }

  final class CellImpl(init: Int = 0) extends ActiveObject with Cell {
    var value: Int = init
    var checks = 0 // how often the condition of awaitAtLeast was evaluated
    def set(v: Int): Proc[Unit] = Proc.delay { value = v }
    def get(): Proc[Int] = Proc.delay(value)
    def awaitAtLeast(v: Int): Proc[Int] =
      Proc.await(Guard.cond("value >= v") { checks += 1; value >= v }).map(_ => value)
  }

  trait Box[A] extends Active {
    def resolveWith(a: A): Proc[A]
  }

  /** A future that resolves when someone calls `release`. */
  trait Latch extends Active {
    def waitOpen(): Proc[Int]
    def open(v: Int): Proc[Unit]
  }

  final class LatchImpl extends ActiveObject with Latch {
    private var opened = false
    private var v = 0
    def waitOpen(): Proc[Int] = Proc.awaitUntil(opened).map(_ => v)
    def open(x: Int): Proc[Unit] = Proc.delay { v = x; opened = true }
  }

  /** Records events in order; used by a single COG, so no synchronisation needed. */
  final class Log {
    private val buf = ArrayBuffer.empty[String]
    def add(s: String): Unit = buf.synchronized { buf += s; () }
    def all: List[String] = buf.synchronized(buf.toList)
  }

  /** Checks that two processes of one COG never overlap. */
  final class Exclusion {
    private val inside = new AtomicInteger
    val violations = new AtomicInteger
    def enter(): Unit = if (inside.incrementAndGet() != 1) violations.incrementAndGet()
    def exit(): Unit = inside.decrementAndGet()
  }
}
