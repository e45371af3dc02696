package cogs.session.ast

/** A 1-based position in a protocol file. */
final case class Pos(file: String, line: Int, col: Int) {
  override def toString: String = s"$file:$line:$col"
}

/** A name as written, with where it was written (positions are not part of equality). */
final case class Name(text: String)(val pos: Pos) {
  override def toString: String = text
}

/** `type <java> "java.lang.String" from "rt.jar" as String;` */
final case class TypeDecl(schema: String, target: String, source: String, alias: Name)(val pos: Pos)

final case class RoleDecl(name: Name)

/** `global protocol P(role A, role B) { ... }` */
final case class GlobalProtocol(name: Name, roles: List[RoleDecl], body: Block)(val pos: Pos) {
  def roleNames: List[String] = roles.map(_.name.text)
}

final case class Module(name: String, types: List[TypeDecl], protocols: List[GlobalProtocol], file: String, text: String) {
  def protocol(name: String): Option[GlobalProtocol] = protocols.find(_.name.text == name)
}

/** A `{ ... }` block; `pos` is its opening brace. */
final case class Block(items: List[Interaction])(val pos: Pos)

/** A payload element: its type (a declared alias) and an optional name. */
final case class Payload(name: Option[String], tpe: Name)

sealed abstract class Interaction {
  def pos: Pos
}

/** `L(T1, T2) from A to B, C;` (several receivers: one message to each, in the order written). */
final case class Message(label: Name, payload: List[Payload], from: Name, to: List[Name])(val pos: Pos) extends Interaction

/** `choice at R { ... } or { ... }` */
final case class Choice(at: Name, branches: List[Block])(val pos: Pos) extends Interaction

/** `rec X { ... }` */
final case class Rec(label: Name, body: Block)(val pos: Pos) extends Interaction

/** `continue X;` */
final case class Continue(label: Name)(val pos: Pos) extends Interaction

/** `do Q(A, B);` */
final case class Do(proto: Name, args: List[Name])(val pos: Pos) extends Interaction

/** `par { ... } and { ... }` */
final case class Par(branches: List[Block])(val pos: Pos) extends Interaction
