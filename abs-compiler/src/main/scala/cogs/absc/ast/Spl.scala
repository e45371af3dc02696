package cogs.absc.ast

/*
 * The software product line part of a compilation unit (the ABS manual's "Software product
 * line engineering" chapter): delta modules, the product line (features and delta clauses),
 * products and the feature model. The parser fills it; the flattening phase
 * (cogs.absc.spl.Flatten) turns a core program plus a product into a plain program, and no
 * later phase ever sees these nodes. Positions follow the conventions of Ast.scala: a named
 * declaration is positioned at its name, everything else at its first token.
 */

/** Everything of a compilation unit that is not a module, in source order per kind. */
final case class SplDecls(
    deltas: List[DeltaDecl] = Nil,
    productLine: Option[ProductLineDecl] = None,
    products: List[ProductDecl] = Nil,
    features: List[FeatureModelDecl] = Nil) {
  def isEmpty: Boolean = deltas.isEmpty && productLine.isEmpty && products.isEmpty && features.isEmpty
}

object SplDecls {
  val empty: SplDecls = SplDecls()
}

sealed trait SplNode extends Product with Serializable {
  def pos: Pos
}

// -------------------------------------------------------------------------------------
// Deltas

/** `delta D(Int cost); uses M; modifiers..` */
final case class DeltaDecl(name: String, params: List[Param], uses: Option[String], modifiers: List[DeltaModifier])(
    implicit val pos: Pos) extends SplNode

/** What a delta does to a module. */
sealed trait DeltaModifier extends SplNode

/** `adds class ..`, `adds interface ..`, `adds def ..`, `adds data ..`, `adds type ..` (also exceptions and traits). */
final case class AddsDecl(decl: Decl)(implicit val pos: Pos) extends DeltaModifier
/** `modifies data T = ..;`: the data type replaced. */
final case class ModifiesData(decl: DataDecl)(implicit val pos: Pos) extends DeltaModifier
/** `modifies type T = ..;`: the type synonym replaced. */
final case class ModifiesTypeSyn(decl: TypeSynDecl)(implicit val pos: Pos) extends DeltaModifier
final case class RemovesClass(name: QName)(implicit val pos: Pos) extends DeltaModifier
final case class RemovesInterface(name: QName)(implicit val pos: Pos) extends DeltaModifier
/** `modifies class C adds I removes J { class modifiers }` */
final case class ModifiesClass(name: QName, addsIfaces: List[NameRef], removesIfaces: List[NameRef],
    modifiers: List[ClassModifier])(implicit val pos: Pos) extends DeltaModifier
/** `modifies interface I { adds T m(); removes T n(); }` */
final case class ModifiesInterface(name: QName, modifiers: List[InterfaceModifier])(implicit val pos: Pos)
    extends DeltaModifier
final case class AddsImport(imp: Import)(implicit val pos: Pos) extends DeltaModifier
final case class AddsExport(exp: Export)(implicit val pos: Pos) extends DeltaModifier

/** What a delta does to a class. */
sealed trait ClassModifier extends SplNode
final case class AddsField(field: FieldDecl)(implicit val pos: Pos) extends ClassModifier
final case class RemovesField(field: FieldDecl)(implicit val pos: Pos) extends ClassModifier
/** `adds T m() {..}`, `adds { .. }`, `adds TraitName` */
final case class AddsMethods(set: MethodSet)(implicit val pos: Pos) extends ClassModifier
/** `modifies T m() {.. original(..) ..}`: the new body may call the one it replaces. */
final case class ModifiesMethods(set: MethodSet)(implicit val pos: Pos) extends ClassModifier
/** `removes T m();`, `removes { T m(); T n(); }` */
final case class RemovesMethods(sigs: List[MethodSig])(implicit val pos: Pos) extends ClassModifier

sealed trait InterfaceModifier extends SplNode
final case class AddsSig(sig: MethodSig)(implicit val pos: Pos) extends InterfaceModifier
final case class RemovesSig(sig: MethodSig)(implicit val pos: Pos) extends InterfaceModifier

// -------------------------------------------------------------------------------------
// The product line

/** `productline PL; features F, G; delta clauses..` */
final case class ProductLineDecl(name: String, features: List[NameRef], clauses: List[DeltaClause])(
    implicit val pos: Pos) extends SplNode {
  def featureNames: List[String] = features.map(_.name.name)
}

/** `delta D(F.a, 3) after E, G when F && !H;` (no `when`: the delta is always applied). */
final case class DeltaClause(delta: String, args: List[DeltaArg], after: List[NameRef], when: Option[AppCond])(
    implicit val pos: Pos) extends SplNode {
  def afterNames: List[String] = after.map(_.name.name)
}

sealed trait DeltaArg extends SplNode
/** `F.a`: the value of attribute `a` of feature `F` in the product. */
final case class AttrArg(feature: String, attr: String)(implicit val pos: Pos) extends DeltaArg
final case class IntArg(value: BigInt)(implicit val pos: Pos) extends DeltaArg
final case class StringArg(value: String)(implicit val pos: Pos) extends DeltaArg
/** `True`, `False`, or a feature name (True when the product has it). */
final case class NameArg(name: String)(implicit val pos: Pos) extends DeltaArg

/** An application condition: a Boolean formula over features. */
sealed trait AppCond extends SplNode
final case class FeatureCond(feature: String)(implicit val pos: Pos) extends AppCond
final case class NotCond(c: AppCond)(implicit val pos: Pos) extends AppCond
final case class AndCond(l: AppCond, r: AppCond)(implicit val pos: Pos) extends AppCond
final case class OrCond(l: AppCond, r: AppCond)(implicit val pos: Pos) extends AppCond

// -------------------------------------------------------------------------------------
// Products

/** `product P(F, G{a = 1});` (a `Right` body) or `product P = expr;` (a `Left`). */
final case class ProductDecl(name: String, body: Either[ProductExpr, List[FeatureSpec]])(implicit val pos: Pos)
    extends SplNode

/** `F` or `F{a = 1, b = True}` */
final case class FeatureSpec(name: String, attrs: List[AttrAssign])(implicit val pos: Pos) extends SplNode
final case class AttrAssign(name: String, value: AttrValue)(implicit val pos: Pos) extends SplNode

sealed trait AttrValue extends Product with Serializable
final case class IntValue(value: BigInt) extends AttrValue { override def toString: String = value.toString }
final case class BoolValue(value: Boolean) extends AttrValue { override def toString: String = if (value) "True" else "False" }
final case class StringValue(value: String) extends AttrValue { override def toString: String = "\"" + value + "\"" }

/** Product expressions: sets of features combined by intersection, union and difference. */
sealed trait ProductExpr extends SplNode
final case class ProductSet(features: List[FeatureSpec])(implicit val pos: Pos) extends ProductExpr
final case class ProductName(name: String)(implicit val pos: Pos) extends ProductExpr
final case class ProductAnd(l: ProductExpr, r: ProductExpr)(implicit val pos: Pos) extends ProductExpr
final case class ProductOr(l: ProductExpr, r: ProductExpr)(implicit val pos: Pos) extends ProductExpr
final case class ProductMinus(l: ProductExpr, r: ProductExpr)(implicit val pos: Pos) extends ProductExpr

// -------------------------------------------------------------------------------------
// The feature model (the manual's mTVL)

sealed trait FeatureModelDecl extends SplNode
/** `root F { .. }` */
final case class FeatureRoot(feature: FeatureDecl)(implicit val pos: Pos) extends FeatureModelDecl
/** `extension F { .. }`: more attributes and constraints (and a group, if F has none) for F. */
final case class FeatureExtension(name: String, body: FeatureBody)(implicit val pos: Pos) extends FeatureModelDecl

final case class FeatureDecl(name: String, body: FeatureBody)(implicit val pos: Pos) extends SplNode
final case class FeatureBody(group: Option[FeatureGroup], attrs: List[FeatureAttr], constraints: List[FeatureConstraint])

/** `group oneof { A, opt B }` (the Boolean: `opt`). */
final case class FeatureGroup(card: Cardinality, members: List[(Boolean, FeatureDecl)])(implicit val pos: Pos)
    extends SplNode

sealed trait Cardinality extends Product with Serializable
/** `allof`: every member that is not `opt`. */
case object AllOf extends Cardinality
/** `oneof` is `Between(1, Some(1))`; `[n .. *]` has no maximum. */
final case class Between(min: BigInt, max: Option[BigInt]) extends Cardinality

/**
 * `Int a in [0 .. 10];` (`lo`/`hi` None: `*`), `Int a in {1, 2};`, `Int a;`, `Bool b;`,
 * `String s;`. `values` is the set form's list.
 */
final case class FeatureAttr(name: String, tpe: String, lo: Option[BigInt], hi: Option[BigInt], values: Option[List[BigInt]])(
    implicit val pos: Pos) extends SplNode

sealed trait FeatureConstraint extends SplNode
/** `e;` or `ifin: e;`: if the feature is selected, e holds. */
final case class IfIn(e: MExp)(implicit val pos: Pos) extends FeatureConstraint
/** `ifout: e;`: if the feature is not selected, e holds. */
final case class IfOut(e: MExp)(implicit val pos: Pos) extends FeatureConstraint
final case class Require(feature: String)(implicit val pos: Pos) extends FeatureConstraint
final case class Exclude(feature: String)(implicit val pos: Pos) extends FeatureConstraint

/** Expressions of the feature model's constraints over features (Booleans) and attributes. */
sealed trait MExp extends SplNode
final case class MInt(value: BigInt)(implicit val pos: Pos) extends MExp
/** A feature (`F`, True when selected), `True`, `False`, or an attribute of the enclosing feature (`a`). */
final case class MName(name: String)(implicit val pos: Pos) extends MExp
/** `F.a` */
final case class MAttr(feature: String, attr: String)(implicit val pos: Pos) extends MExp
final case class MUnary(op: String, e: MExp)(implicit val pos: Pos) extends MExp
/** `op` is one of `* / % + - < <= > >= == != -> <-> && ||`. */
final case class MBinary(op: String, l: MExp, r: MExp)(implicit val pos: Pos) extends MExp
