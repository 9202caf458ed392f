//! The typed, spanned syntax tree of a rules file, as parsed (names not yet resolved).

use crate::span::{Name, Span};

/// Most players a game may have: a seat is stored in a byte.
pub const MAX_PLAYERS: u32 = u8::MAX as u32;

#[derive(Debug, Default)]
pub struct Spec {
    /// The rules this file starts from, if any.
    pub extends: Option<Name>,
    pub game: Option<Name>,
    pub players: Option<(u32, u32, Span)>,
    /// `players N, E, S, W`: the exact names and order of the players, if the game fixes them.
    pub seats: Option<Vec<String>>,
    pub rules: Vec<RuleDecl>,
    pub params: Vec<ParamDecl>,
    pub enums: Vec<EnumDecl>,
    pub cards: Vec<CardDecl>,
    pub actions: Vec<ActionDecl>,
    pub vars: Vec<VarDecl>,
    pub fns: Vec<FnDecl>,
    pub procs: Vec<ProcDecl>,
    pub always: Vec<Branch>,
    /// `window BRANCH`: records open once, from an `open ACTION` until taken or the next
    /// event of the flow.
    pub windows: Vec<Branch>,
    /// `due NAME when COND`: the body is the procedure NAME (in `procs`).
    pub dues: Vec<DueDecl>,
    pub scores: Option<Expr>,
    pub winners: Option<Expr>,
    /// `view a, b`: the variables shown at a violation (the last `view` of an extension wins).
    pub view: Option<Vec<Name>>,
    /// `history a, b`: the variables whose changes a violation lists.
    pub history: Option<Vec<Name>>,
    /// `look S black "♠"`: how the cards of a group are drawn (a later one of a group wins).
    pub looks: Vec<LookDecl>,
    pub flow: Option<Block>,
}

/// `look MEMBER COLOUR "SYMBOL"`: the colour and symbol of the cards whose group is MEMBER.
#[derive(Debug, Clone)]
pub struct LookDecl {
    pub member: Name,
    pub colour: Name,
    /// The symbol as written (without its quotes), and where.
    pub symbol: Option<Name>,
}

#[derive(Debug)]
pub struct RuleDecl {
    pub id: Name,
    pub text: String,
    /// `stands`: a move that breaks the rule may stand (`check --all` goes on past it).
    pub stands: bool,
}

#[derive(Debug)]
pub struct ParamDecl {
    pub name: Name,
    pub ty: Ty,
    pub default: ParamDefault,
}

#[derive(Debug)]
pub enum ParamDefault {
    Expr(Expr),
    ByPlayers(Vec<(u32, Expr)>),
}

#[derive(Debug)]
pub struct EnumDecl {
    pub name: Name,
    pub variants: Vec<Name>,
}

#[derive(Debug)]
pub struct CardDecl {
    pub name: Name,
    /// Declared with `codes`: coded values that are not cards (messages say "code").
    pub plain: bool,
    pub fields: Vec<(Name, Ty)>,
    /// For each attribute, the condition under which a card has it (`if ...`).
    pub when: Vec<Option<Expr>>,
    pub body: CardBody,
}

#[derive(Debug)]
pub enum CardBody {
    /// Every combination of the bindings, each named by the code expression.
    Each { bindings: Vec<(Name, Expr)>, code: Expr },
    /// Explicit cards: code, attribute values.
    Rows(Vec<(Name, Vec<Expr>)>),
    /// Every combination, then some explicit cards.
    Both(Box<CardBody>, Box<CardBody>),
    /// Rows of a data file named by a `file` parameter: the parameter, the key of the
    /// list in the file, and the checks each row must pass.
    Pool { param: Name, key: Name, checks: Vec<(Expr, Template)> },
}

#[derive(Debug)]
pub struct ActionDecl {
    pub name: Name,
    pub ty: Ty,
}

#[derive(Debug)]
pub struct VarDecl {
    pub name: Name,
    pub per_player: bool,
    pub init: Expr,
}

#[derive(Debug)]
pub struct FnDecl {
    pub name: Name,
    pub params: Vec<Name>,
    pub body: Expr,
}

#[derive(Debug)]
pub struct DueDecl {
    pub name: Name,
    pub cond: Expr,
}

#[derive(Debug)]
pub struct ProcDecl {
    pub name: Name,
    pub params: Vec<Name>,
    pub body: Block,
    /// `check NAME(...)`: only checks, called among a branch's checks.
    pub checks_only: bool,
}

/// One action open at a waiting point: `ACTION(arg) by ACTORS as p when GUARD choices C { body }`.
#[derive(Debug)]
pub struct Branch {
    pub action: Name,
    pub arg: Name,
    pub actors: Expr,
    pub actor_var: Option<Name>,
    pub guard: Option<Expr>,
    pub choices: Option<Expr>,
    pub body: Block,
    pub span: Span,
}

#[derive(Debug)]
pub struct Ty {
    pub kind: TyKind,
    pub span: Span,
}

#[derive(Debug)]
pub enum TyKind {
    Int(Option<Expr>, Option<Expr>),
    Bool,
    Str,
    Player,
    Null,
    Literal(String),
    Named(Name),
    /// Length, item type, whether items must be distinct.
    List(Option<Expr>, Box<Ty>, bool),
    Map(Box<Ty>, Box<Ty>, bool),
    File,
    /// `nonempty list ...`, `nonempty map ...`
    NonEmpty(Box<Ty>),
    Record(Vec<(Name, bool, Ty)>),
    Union(Vec<Ty>),
}

pub type Block = Vec<Stmt>;

#[derive(Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Debug)]
pub enum StmtKind {
    Let(Name, Expr),
    /// `require COND else RULE "message"`, with the `costs` block of a rule that stands.
    Require(Expr, Name, Template, Option<Block>),
    If(Expr, Block, Option<Block>),
    For(Name, Option<Name>, Expr, Block),
    While(Expr, Block),
    Loop(Block),
    /// Branches, and `otherwise` with its optional guard.
    Choose(Vec<Branch>, Option<(Option<Expr>, Block)>),
    Break,
    Continue,
    Again,
    /// `finish`, or `finish now` (`true`): the game ends at once.
    Finish(bool),
    /// `settle`: run the `due` steps that hold now.
    Settle,
    /// `open ACTION`: the `window` records of the action open.
    Open(Name),
    /// `note "text"`: a line the verdict carries.
    Note(Template),
    Assign(LValue, AssignOp, Expr),
    Call(Name, Vec<Expr>),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
}

#[derive(Debug)]
pub struct LValue {
    pub root: Name,
    pub path: Vec<Accessor>,
}

#[derive(Debug)]
pub enum Accessor {
    Index(Expr),
    Field(Name),
}

/// A string with `{expr}` holes.
#[derive(Debug)]
pub struct Template {
    pub parts: Vec<TemplatePart>,
    pub span: Span,
}

#[derive(Debug)]
pub enum TemplatePart {
    Text(String),
    Expr(Expr),
}

#[derive(Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug)]
pub enum ExprKind {
    Int(i64),
    Str(Template),
    Bool(bool),
    Null,
    Table,
    Name(Name),
    List(Vec<Expr>),
    Record(Vec<(Name, Expr)>),
    Comprehension {
        body: Box<Expr>,
        var: Name,
        var2: Option<Name>,
        coll: Box<Expr>,
        cond: Option<Box<Expr>>,
    },
    Quantifier {
        all: bool,
        var: Name,
        coll: Box<Expr>,
        body: Box<Expr>,
    },
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `let x = VALUE in BODY`: `x` names VALUE inside BODY.
    Let(Name, Box<Expr>, Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Slice(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
    Field(Box<Expr>, Name),
    Call(Name, Vec<Expr>),
    Lambda(Name, Box<Expr>),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum UnOp {
    Not,
    Neg,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    Concat,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}
