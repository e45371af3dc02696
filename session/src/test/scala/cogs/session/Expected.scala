package cogs.session

import org.junit.jupiter.api.Assertions._

import cogs.session.fsm.Fsm

/**
 * Hand-written machines, and the comparison of a computed machine with one. The comparison is
 * an isomorphism check written here, independent of the code under test's own numbering: both
 * machines are deterministic, so pairing states breadth-first from the initial ones by equal
 * actions gives the only possible bijection, which must then preserve every transition and
 * finality.
 */
object Expected {

  /** `"0 S!login(String) 1"` lines and one `"final 1 2"` line (or none: no final state). */
  final case class Machine(transitions: List[(Int, String, Int)], finals: Set[Int]) {
    def states: Set[Int] = transitions.flatMap(t => List(t._1, t._3)).toSet + 0 ++ finals
  }

  def machine(spec: String): Machine = {
    val lines = spec.linesIterator.map(_.trim).filter(_.nonEmpty).toList
    val (fin, ts) = lines.partition(_.startsWith("final"))
    val trans = ts.map { l =>
      val parts = l.split("\\s+", 2)
      val from = parts(0).toInt
      val rest = parts(1)
      val sp = rest.lastIndexOf(' ')
      (from, rest.substring(0, sp).trim, rest.substring(sp + 1).toInt)
    }
    Machine(trans, fin.flatMap(_.split("\\s+").drop(1).map(_.toInt)).toSet)
  }

  def assertFsm(expectedSpec: String, actual: Fsm): Unit = {
    val e = machine(expectedSpec)
    val at = actual.transitions.map(t => (t.from, t.action.text, t.to)).toList
    def fail(why: String) = throw new AssertionError(s"$why\nexpected (hand-written):\n$expectedSpec\nactual:\n${actual.text}")
    if (e.states.size != actual.states) fail(s"expected ${e.states.size} states, got ${actual.states}")
    if (e.transitions.size != at.size) fail(s"expected ${e.transitions.size} transitions, got ${at.size}")
    val pair = scala.collection.mutable.HashMap(0 -> 0)
    val queue = scala.collection.mutable.Queue(0)
    while (queue.nonEmpty) {
      val s = queue.dequeue()
      val eo = e.transitions.filter(_._1 == s).map(t => t._2 -> t._3).toMap
      val ao = at.filter(_._1 == pair(s)).map(t => t._2 -> t._3).toMap
      if (eo.keySet != ao.keySet) fail(s"state $s: expected actions ${eo.keySet.toList.sorted}, got ${ao.keySet.toList.sorted} (at actual ${pair(s)})")
      for ((a, et) <- eo) pair.get(et) match {
        case Some(p) => if (p != ao(a)) fail(s"state $s --$a--> $et is paired with actual ${pair(s)} --$a--> ${ao(a)}, but $et was already paired with $p")
        case None =>
          if (pair.values.exists(_ == ao(a))) fail(s"actual state ${ao(a)} is paired twice")
          pair(et) = ao(a); queue += et
      }
    }
    if (pair.size != e.states.size) fail("unreachable states in the hand-written machine")
    for ((es, as) <- pair) assertEquals(e.finals(es), actual.finals(as), s"finality of state $es (actual $as)\n${actual.text}")
  }

  val Header: String =
    """module test;
      |type <java> "java.lang.Integer" from "rt.jar" as Int;
      |type <java> "java.lang.String" from "rt.jar" as String;
      |""".stripMargin

  def module(body: String): ProtocolModule = ProtocolModule.check("test.scr", Header + body) match {
    case Right(m) => m
    case Left(ds) => throw new AssertionError("unexpected errors:\n" + ds.map(_.render(Header + body)).mkString("\n"))
  }

  /** The errors of `body` (after the 3-line header, so line numbers in tests start at 4). */
  def errors(body: String): List[String] = ProtocolModule.check("test.scr", Header + body) match {
    case Right(_) => fail(s"expected errors, but the protocol was accepted:\n$body")
    case Left(ds) => ds.map(_.header)
  }

  /** The paper's Purchase protocol (its Fig. 2a), in today's Scribble syntax. */
  val purchase: String =
    """global protocol Purchase(role B, role S, role A) {
      |  login(String) from B to S;
      |  login(String) from S to A;
      |  authenticate(String) from A to B, S;
      |  choice at B {
      |    request(String) from B to S;
      |    quote(Int) from S to B;
      |  } or {
      |    buy(String) from B to S;
      |    delivery(String) from S to B;
      |  } or {
      |    quit() from B to S;
      |  }
      |}""".stripMargin

  /** Purchase with the authenticator telling the seller before the buyer (no mailbox race at S). */
  val purchaseSellerFirst: String = purchase.replace("from A to B, S", "from A to S, B")
}
