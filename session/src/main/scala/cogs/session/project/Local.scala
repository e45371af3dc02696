package cogs.session.project

import cogs.session.ast.Pos

/**
 * A local protocol: what one role does. Positions are those of the global protocol's
 * interactions and are not part of equality, so two branches that project to the same
 * behaviour compare equal wherever they were written.
 */
sealed abstract class Local {
  def pos: Pos
}

final case class Send(label: String, payload: List[String], to: String)(val pos: Pos) extends Local
final case class Recv(label: String, payload: List[String], from: String)(val pos: Pos) extends Local
/**
 * A choice: internal if `at` is the role itself (it sends first in every branch), external
 * otherwise. `branchPos` are the global branches' positions (for errors), `index` their numbers
 * as written (a branch the role cannot see is dropped from `branches`).
 */
final case class LChoice(at: String, branches: List[List[Local]])(val pos: Pos, val branchPos: List[Pos] = Nil, val index: List[Int] = Nil)
    extends Local
final case class LRec(label: String, body: List[Local])(val pos: Pos) extends Local
final case class LContinue(label: String)(val pos: Pos) extends Local
final case class LPar(branches: List[List[Local]])(val pos: Pos) extends Local

/** The projection of global protocol `protocol` on `role`. */
final case class LocalProtocol(protocol: String, role: String, roles: List[String], body: List[Local]) {

  /** Scribble-like text: `local protocol P at B(role A, role B) { ... }`. */
  def text: String = {
    val b = new StringBuilder
    b ++= s"local protocol $protocol at $role(${roles.map("role " + _).mkString(", ")}) {\n"
    LocalProtocol.render(body, 1, b)
    b ++= "}\n"
    b.result()
  }
}

object LocalProtocol {
  private def payload(p: List[String]) = p.mkString("(", ", ", ")")

  private def render(xs: List[Local], depth: Int, b: StringBuilder): Unit = {
    val ind = "  " * depth
    def blocks(kw: String, bs: List[List[Local]]): Unit =
      bs.zipWithIndex.foreach { case (br, i) =>
        if (i > 0) b ++= s" $kw {\n" else ()
        render(br, depth + 1, b)
        b ++= s"$ind}"
      }
    xs.foreach {
      case s: Send => b ++= s"$ind${s.label}${payload(s.payload)} to ${s.to};\n"
      case r: Recv => b ++= s"$ind${r.label}${payload(r.payload)} from ${r.from};\n"
      case c: LChoice =>
        b ++= s"${ind}choice at ${c.at} {\n"; blocks("or", c.branches); b ++= "\n"
      case r: LRec =>
        b ++= s"${ind}rec ${r.label} {\n"; render(r.body, depth + 1, b); b ++= s"$ind}\n"
      case c: LContinue => b ++= s"${ind}continue ${c.label};\n"
      case p: LPar =>
        b ++= s"${ind}par {\n"; blocks("and", p.branches); b ++= "\n"
    }
  }
}
