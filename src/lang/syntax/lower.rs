//! Pest pairs to the syntax tree, one function per grammar rule. Shapes the grammar
//! guarantees are taken as given; where a child must exist, a missing one is an internal
//! syntax error rather than a panic.

use pest::iterators::Pair;

use super::Rule;
use crate::codes;
use crate::diag::Diag;
use crate::lang::ast::*;
use crate::span::{Name, Span};

type P<'a> = Pair<'a, Rule>;
type R<T> = Result<T, Diag>;

fn is_keyword(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::k_game
            | Rule::k_extends
            | Rule::k_players
            | Rule::k_rule
            | Rule::k_param
            | Rule::k_by
            | Rule::k_enum
            | Rule::k_card
            | Rule::k_each
            | Rule::k_code
            | Rule::k_action
            | Rule::k_var
            | Rule::k_per
            | Rule::k_player
            | Rule::k_fn
            | Rule::k_proc
            | Rule::k_check
            | Rule::k_always
            | Rule::k_window
            | Rule::k_open
            | Rule::k_note
            | Rule::k_costs
            | Rule::k_codes
            | Rule::k_due
            | Rule::k_from
            | Rule::k_file
            | Rule::k_settle
            | Rule::k_scores
            | Rule::k_winners
            | Rule::k_view
            | Rule::k_look
            | Rule::k_history
            | Rule::k_flow
            | Rule::k_int
            | Rule::k_bool
            | Rule::k_str
            | Rule::k_null
            | Rule::k_list
            | Rule::k_map
            | Rule::k_let
            | Rule::k_require
            | Rule::k_else
            | Rule::k_if
            | Rule::k_then
            | Rule::k_for
            | Rule::k_in
            | Rule::k_while
            | Rule::k_loop
            | Rule::k_choose
            | Rule::k_as
            | Rule::k_when
            | Rule::k_choices
            | Rule::k_otherwise
            | Rule::k_break
            | Rule::k_continue
            | Rule::k_again
            | Rule::k_finish
            | Rule::k_where
    )
}

/// The children of a pair, keyword tokens left out.
fn kids(p: P<'_>) -> impl Iterator<Item = P<'_>> {
    p.into_inner().filter(|c| !is_keyword(c.as_rule()))
}

fn span(p: &P<'_>) -> Span {
    p.as_span().start()..p.as_span().end()
}

fn name(p: P<'_>) -> Name {
    Name { text: p.as_str().to_string(), span: span(&p) }
}

fn shape_error_at(at: &Span) -> Diag {
    Diag::new(codes::SYNTAX, "unexpected syntax").label(at.clone(), "here")
}

fn shape_error(p: &P<'_>) -> Diag {
    Diag::new(codes::SYNTAX, format!("unexpected {:?}", p.as_rule())).label(span(p), "here")
}

fn next<'a>(it: &mut impl Iterator<Item = P<'a>>, at: &Span) -> R<P<'a>> {
    it.next().ok_or_else(|| Diag::new(codes::SYNTAX, "incomplete construct").label(at.clone(), "here"))
}

pub fn spec(p: P<'_>) -> R<Spec> {
    let mut spec = Spec::default();
    for item in kids(p) {
        item_into(item, &mut spec)?;
    }
    Ok(spec)
}

fn item_into(p: P<'_>, spec: &mut Spec) -> R<()> {
    let at = span(&p);
    let rule = p.as_rule();
    let mut it = kids(p).peekable();
    match rule {
        Rule::game_decl => spec.game = Some(name(next(&mut it, &at)?)),
        Rule::extends_decl => {
            let target = next(&mut it, &at)?;
            let text = if target.as_rule() == Rule::string {
                plain_string(target.clone())
            } else {
                target.as_str().to_string()
            };
            spec.extends = Some(Name { text, span: span(&target) });
        }
        Rule::players_decl if it.peek().is_some_and(|k| k.as_rule() == Rule::seat_names) => {
            let seats: Vec<String> = kids(next(&mut it, &at)?).map(|n| n.as_str().to_string()).collect();
            if let Some(twice) = seats.iter().enumerate().find(|(i, s)| seats[..*i].contains(s)).map(|(_, s)| s) {
                return Err(Diag::new(codes::DUPLICATE, format!("the player `{twice}` is named twice"))
                    .label(at, "player names"));
            }
            let max = crate::lang::ast::MAX_PLAYERS as usize;
            if seats.len() > max {
                return Err(Diag::new(codes::LIMIT, format!("a game is for 1 to {max} players, not {}", seats.len()))
                    .label(at, "player names"));
            }
            spec.players = Some((seats.len() as u32, seats.len() as u32, at));
            spec.seats = Some(seats);
        }
        Rule::players_decl => {
            let lo = int_value(&next(&mut it, &at)?)?;
            // `players 4` is `players 4..4`.
            let hi = match it.next() {
                Some(_dotdot) => int_value(&next(&mut it, &at)?)?,
                None => lo,
            };
            let max = crate::lang::ast::MAX_PLAYERS;
            if lo < 1 || hi < lo || hi > i64::from(max) {
                return Err(Diag::new(codes::LIMIT, format!("a game is for 1 to {max} players, not {lo} to {hi}"))
                    .label(at, "player count"));
            }
            spec.players = Some((lo as u32, hi as u32, at));
            spec.seats = None;
        }
        Rule::rule_decl => {
            let id = name(next(&mut it, &at)?);
            let text = plain_string(next(&mut it, &at)?);
            let stands = it.any(|p| p.as_rule() == Rule::stands);
            spec.rules.push(RuleDecl { id, text, stands });
        }
        Rule::param_decl => spec.params.push(param(it, &at)?),
        Rule::enum_decl => {
            let n = name(next(&mut it, &at)?);
            spec.enums.push(EnumDecl { name: n, variants: it.map(name).collect() });
        }
        Rule::card_decl => spec.cards.push(card(it, &at)?),
        Rule::action_decl => {
            let n = name(next(&mut it, &at)?);
            next(&mut it, &at)?; // colon
            spec.actions.push(ActionDecl { name: n, ty: ty(next(&mut it, &at)?)? });
        }
        Rule::var_decl => spec.vars.push(var(it, &at)?),
        Rule::fn_decl => {
            let n = name(next(&mut it, &at)?);
            let (params, body) = params_then(it, &at)?;
            spec.fns.push(FnDecl { name: n, params, body: expr(body)? });
        }
        Rule::proc_decl => {
            let n = name(next(&mut it, &at)?);
            let (params, body) = params_then(it, &at)?;
            spec.procs.push(ProcDecl { name: n, params, body: block(body)?, checks_only: false });
        }
        Rule::check_decl => {
            let n = name(next(&mut it, &at)?);
            let (params, body) = params_then(it, &at)?;
            spec.procs.push(ProcDecl { name: n, params, body: block(body)?, checks_only: true });
        }
        Rule::due_decl => {
            let n = name(next(&mut it, &at)?);
            let cond = expr(next(&mut it, &at)?)?;
            let body = block(next(&mut it, &at)?)?;
            spec.procs.push(ProcDecl { name: n.clone(), params: vec![], body, checks_only: false });
            spec.dues.push(DueDecl { name: n, cond });
        }
        Rule::always_decl => spec.always.push(branch(next(&mut it, &at)?)?),
        Rule::window_decl => spec.windows.push(branch(next(&mut it, &at)?)?),
        Rule::scores_decl => spec.scores = Some(expr(next(&mut it, &at)?)?),
        Rule::winners_decl => spec.winners = Some(expr(next(&mut it, &at)?)?),
        Rule::view_decl => spec.view = Some(it.map(name).collect()),
        Rule::history_decl => spec.history = Some(it.map(name).collect()),
        Rule::look_decl => {
            let member = name(next(&mut it, &at)?);
            let colour = name(next(&mut it, &at)?);
            let symbol = match it.next() {
                Some(p) if p.clone().into_inner().any(|c| c.as_rule() == Rule::interp) => {
                    let span = p.as_span().start()..p.as_span().end();
                    let d = Diag::new(codes::MISPLACED, "a look's symbol is plain text, without `{...}`");
                    return Err(d.label(span, "not plain text"));
                }
                Some(p) => Some(Name { span: p.as_span().start()..p.as_span().end(), text: plain_string(p) }),
                None => None,
            };
            spec.looks.push(LookDecl { member, colour, symbol });
        }
        Rule::flow_decl => spec.flow = Some(block(next(&mut it, &at)?)?),
        Rule::EOI => {}
        _ => return Err(Diag::new(codes::SYNTAX, "unexpected item").label(at, "here")),
    }
    Ok(())
}

fn params_then<'a>(mut it: impl Iterator<Item = P<'a>>, at: &Span) -> R<(Vec<Name>, P<'a>)> {
    let first = next(&mut it, at)?;
    if first.as_rule() == Rule::param_names {
        Ok((kids(first).map(name).collect(), next(&mut it, at)?))
    } else {
        Ok((vec![], first))
    }
}

fn param<'a>(mut it: impl Iterator<Item = P<'a>>, at: &Span) -> R<ParamDecl> {
    let n = name(next(&mut it, at)?);
    next(&mut it, at)?; // colon
    let t = ty(next(&mut it, at)?)?;
    let d = next(&mut it, at)?;
    let default = if d.as_rule() == Rule::by_players {
        let mut entries = vec![];
        for entry in kids(d) {
            let eat = span(&entry);
            let mut e = kids(entry);
            let count = int_value(&next(&mut e, &eat)?)? as u32;
            next(&mut e, &eat)?; // colon
            entries.push((count, expr(next(&mut e, &eat)?)?));
        }
        ParamDefault::ByPlayers(entries)
    } else {
        ParamDefault::Expr(expr(d)?)
    };
    Ok(ParamDecl { name: n, ty: t, default })
}

fn card<'a>(mut it: impl Iterator<Item = P<'a>>, at: &Span) -> R<CardDecl> {
    let plain = next(&mut it, at)?.as_str() == "codes";
    let n = name(next(&mut it, at)?);
    let mut fields = vec![];
    let mut rows = vec![];
    let mut each = None;
    let mut when = vec![];
    let mut pool = None;
    for p in it {
        let pat = span(&p);
        match p.as_rule() {
            Rule::field_decl => {
                let mut f = kids(p);
                let fname = name(next(&mut f, &pat)?);
                next(&mut f, &pat)?; // colon
                fields.push((fname, ty(next(&mut f, &pat)?)?));
                when.push(f.find(|c| c.as_rule() == Rule::expr).map(expr).transpose()?);
            }
            Rule::card_from => pool = Some(card_from(p)?),
            Rule::card_each => each = Some(card_each(p)?),
            Rule::card_row => {
                let mut r = kids(p);
                let code = next(&mut r, &pat)?;
                let code_name = Name { text: plain_string(code.clone()), span: span(&code) };
                rows.push((code_name, r.map(expr).collect::<R<Vec<_>>>()?));
            }
            _ => return Err(shape_error(&p)),
        }
    }
    let body = match (pool, each) {
        (Some(pool), _) => pool,
        (None, Some(each)) if !rows.is_empty() => CardBody::Both(Box::new(each), Box::new(CardBody::Rows(rows))),
        (None, Some(each)) => each,
        (None, None) => CardBody::Rows(rows),
    };
    Ok(CardDecl { name: n, plain, fields, when, body })
}

fn card_from(p: P<'_>) -> R<CardBody> {
    let at = span(&p);
    let mut it = kids(p);
    let param = name(next(&mut it, &at)?);
    let key = name(next(&mut it, &at)?);
    let mut checks = vec![];
    for c in it {
        let cat = span(&c);
        let mut r = kids(c);
        let cond = expr(next(&mut r, &cat)?)?;
        checks.push((cond, template(next(&mut r, &cat)?)?));
    }
    Ok(CardBody::Pool { param, key, checks })
}

fn card_each(p: P<'_>) -> R<CardBody> {
    let mut bindings = vec![];
    let mut code = None;
    for c in kids(p) {
        if c.as_rule() == Rule::binding {
            let at = span(&c);
            let mut b = kids(c);
            let n = name(next(&mut b, &at)?);
            bindings.push((n, expr(next(&mut b, &at)?)?));
        } else {
            code = Some(expr(c)?);
        }
    }
    let code = code.ok_or_else(|| Diag::new(codes::SYNTAX, "a card list needs `code`"))?;
    Ok(CardBody::Each { bindings, code })
}

fn var<'a>(mut it: impl Iterator<Item = P<'a>>, at: &Span) -> R<VarDecl> {
    let n = name(next(&mut it, at)?);
    let mut p = next(&mut it, at)?;
    let per_player = p.as_rule() == Rule::per_player;
    if per_player {
        p = next(&mut it, at)?;
    }
    Ok(VarDecl { name: n, per_player, init: expr(p)? })
}

// ---------------------------------------------------------------- types

fn ty(p: P<'_>) -> R<Ty> {
    let at = span(&p);
    let mut alts: Vec<Ty> = kids(p).map(ty_atom).collect::<R<_>>()?;
    if alts.len() == 1 {
        return alts.pop().ok_or_else(|| Diag::new(codes::SYNTAX, "empty type"));
    }
    Ok(Ty { kind: TyKind::Union(alts), span: at })
}

fn ty_atom(p: P<'_>) -> R<Ty> {
    let at = span(&p);
    let kind = match p.as_rule() {
        Rule::ty => return ty(p),
        Rule::ty_int => int_type(p)?,
        Rule::ty_bool => TyKind::Bool,
        Rule::ty_file => TyKind::File,
        Rule::ty_str => TyKind::Str,
        Rule::ty_player => TyKind::Player,
        Rule::ty_null => TyKind::Null,
        Rule::ty_literal => TyKind::Literal(plain_string(next(&mut kids(p), &at)?)),
        Rule::ty_named => TyKind::Named(name(next(&mut kids(p), &at)?)),
        Rule::ty_list => {
            let mut len = None;
            let mut distinct = false;
            let mut item = None;
            for c in kids(p) {
                match c.as_rule() {
                    Rule::expr => len = Some(expr(c)?),
                    Rule::distinct => distinct = true,
                    _ => item = Some(ty_atom(c)?),
                }
            }
            let item = item
                .ok_or_else(|| Diag::new(codes::SYNTAX, "a list type needs its item type").label(at.clone(), "here"))?;
            TyKind::List(len, Box::new(item), distinct)
        }
        Rule::ty_map => {
            let mut it = kids(p).peekable();
            let total = it.peek().is_some_and(|c| c.as_rule() == Rule::total);
            if total {
                it.next();
            }
            let k = ty_atom(next(&mut it, &at)?)?;
            TyKind::Map(Box::new(k), Box::new(ty_atom(next(&mut it, &at)?)?), total)
        }
        Rule::ty_nonempty => {
            let mut it = kids(p);
            next(&mut it, &at)?;
            TyKind::NonEmpty(Box::new(ty_atom(next(&mut it, &at)?)?))
        }
        Rule::ty_record => TyKind::Record(kids(p).map(ty_field).collect::<R<_>>()?),
        _ => return Err(shape_error(&p)),
    };
    Ok(Ty { kind, span: at })
}

fn int_type(p: P<'_>) -> R<TyKind> {
    let mut lo = None;
    let mut hi = None;
    for c in kids(p) {
        match c.as_rule() {
            Rule::range_lo => lo = Some(expr_any(first_kid(c)?)?),
            Rule::range_hi => hi = Some(expr_any(first_kid(c)?)?),
            _ => {}
        }
    }
    Ok(TyKind::Int(lo, hi))
}

fn ty_field(p: P<'_>) -> R<(Name, bool, Ty)> {
    let at = span(&p);
    let mut it = kids(p);
    let n = name(next(&mut it, &at)?);
    let optional = next(&mut it, &at)?.as_rule() == Rule::optional;
    if optional {
        next(&mut it, &at)?; // colon
    }
    Ok((n, optional, ty(next(&mut it, &at)?)?))
}

// ---------------------------------------------------------------- statements

fn block(p: P<'_>) -> R<Block> {
    kids(p).filter(|c| c.as_rule() != Rule::closing_brace).map(stmt).collect()
}

fn stmt(p: P<'_>) -> R<Stmt> {
    let at = span(&p);
    let rule = p.as_rule();
    let mut it = kids(p);
    let kind = match rule {
        Rule::let_stmt => StmtKind::Let(name(next(&mut it, &at)?), expr(next(&mut it, &at)?)?),
        Rule::require_stmt => {
            let cond = expr(next(&mut it, &at)?)?;
            let rule_id = name(next(&mut it, &at)?);
            let message = template(next(&mut it, &at)?)?;
            let cost = it.find(|p| p.as_rule() == Rule::block).map(block).transpose()?;
            // The check ends with its message: a violation points at it, not at the cost.
            let check = at.start..message.span.end;
            return Ok(Stmt { kind: StmtKind::Require(cond, rule_id, message, cost), span: check });
        }
        Rule::if_stmt => if_stmt(it, &at)?,
        Rule::for_stmt => {
            let v = name(next(&mut it, &at)?);
            let mut p2 = next(&mut it, &at)?;
            let mut v2 = None;
            if p2.as_rule() == Rule::ident {
                v2 = Some(name(p2));
                p2 = next(&mut it, &at)?;
            }
            StmtKind::For(v, v2, expr(p2)?, block(next(&mut it, &at)?)?)
        }
        Rule::while_stmt => StmtKind::While(expr(next(&mut it, &at)?)?, block(next(&mut it, &at)?)?),
        Rule::loop_stmt => StmtKind::Loop(block(next(&mut it, &at)?)?),
        Rule::choose_stmt => choose(it)?,
        Rule::break_stmt => StmtKind::Break,
        Rule::continue_stmt => StmtKind::Continue,
        Rule::again_stmt => StmtKind::Again,
        Rule::settle_stmt => StmtKind::Settle,
        Rule::open_stmt => StmtKind::Open(name(next(&mut it, &at)?)),
        Rule::note_stmt => StmtKind::Note(template(next(&mut it, &at)?)?),
        Rule::finish_stmt => StmtKind::Finish(it.any(|p| p.as_rule() == Rule::finish_now)),
        Rule::assign_stmt => {
            let lv = lvalue(next(&mut it, &at)?)?;
            let op = match next(&mut it, &at)?.as_str() {
                "+=" => AssignOp::Add,
                "-=" => AssignOp::Sub,
                _ => AssignOp::Set,
            };
            StmtKind::Assign(lv, op, expr(next(&mut it, &at)?)?)
        }
        Rule::call_stmt => {
            let n = name(next(&mut it, &at)?);
            StmtKind::Call(
                n,
                match it.next() {
                    Some(a) => args(a)?,
                    None => vec![],
                },
            )
        }
        _ => return Err(Diag::new(codes::SYNTAX, "unexpected statement").label(at, "here")),
    };
    Ok(Stmt { kind, span: at })
}

fn if_stmt<'a>(mut it: impl Iterator<Item = P<'a>>, at: &Span) -> R<StmtKind> {
    let mut arms: Vec<(Expr, Block, Span)> = vec![];
    let mut last = None;
    let cond = expr(next(&mut it, at)?)?;
    arms.push((cond, block(next(&mut it, at)?)?, at.clone()));
    for p in it {
        chain_ok(arms.len(), at)?;
        if p.as_rule() == Rule::else_if {
            let arm_at = span(&p);
            let mut inner = kids(p);
            let cond = expr(next(&mut inner, &arm_at)?)?;
            arms.push((cond, block(next(&mut inner, &arm_at)?)?, arm_at.start..at.end));
        } else {
            last = Some(block(p)?);
        }
    }
    // `else if` arms nest from the last one outwards: each is the `else` of the one before.
    let mut otherwise = last;
    while let Some((cond, then, arm_at)) = arms.pop() {
        if arms.is_empty() {
            return Ok(StmtKind::If(cond, then, otherwise));
        }
        otherwise = Some(vec![Stmt { kind: StmtKind::If(cond, then, otherwise), span: arm_at }]);
    }
    Err(shape_error_at(at))
}

fn choose<'a>(it: impl Iterator<Item = P<'a>>) -> R<StmtKind> {
    let mut branches = vec![];
    let mut otherwise = None;
    for c in it {
        match c.as_rule() {
            Rule::branch => branches.push(branch(c)?),
            Rule::otherwise => {
                let mut guard = None;
                let mut body = None;
                for k in kids(c) {
                    match k.as_rule() {
                        Rule::block => body = Some(block(k)?),
                        _ => guard = Some(expr(k)?),
                    }
                }
                otherwise = body.map(|b| (guard, b));
            }
            _ => {}
        }
    }
    Ok(StmtKind::Choose(branches, otherwise))
}

fn branch(p: P<'_>) -> R<Branch> {
    let at = span(&p);
    let mut it = p.into_inner().peekable();
    let action = name(next(&mut it, &at)?);
    let arg = name(next(&mut it, &at)?);
    next(&mut it, &at)?; // by
    let actors = expr(next(&mut it, &at)?)?;
    let (mut actor_var, mut guard, mut choices, mut body) = (None, None, None, None);
    while let Some(c) = it.next() {
        match c.as_rule() {
            Rule::k_as => actor_var = Some(name(next(&mut it, &at)?)),
            Rule::k_when => guard = Some(expr(next(&mut it, &at)?)?),
            Rule::k_choices => choices = Some(expr(next(&mut it, &at)?)?),
            Rule::block => body = Some(block(c)?),
            _ => return Err(shape_error(&c)),
        }
    }
    let body = body.ok_or_else(|| Diag::new(codes::SYNTAX, "a branch needs a body").label(at.clone(), "here"))?;
    Ok(Branch { action, arg, actors, actor_var, guard, choices, body, span: at })
}

fn lvalue(p: P<'_>) -> R<LValue> {
    let at = span(&p);
    let mut it = kids(p);
    let root = name(next(&mut it, &at)?);
    let path = it.map(accessor).collect::<R<_>>()?;
    Ok(LValue { root, path })
}

fn accessor(p: P<'_>) -> R<Accessor> {
    match p.as_rule() {
        Rule::field => Ok(Accessor::Field(name(first_kid(p)?))),
        _ => Ok(Accessor::Index(expr(first_kid(p)?)?)),
    }
}

fn args(p: P<'_>) -> R<Vec<Expr>> {
    kids(p).map(expr_any).collect()
}

// ---------------------------------------------------------------- expressions

fn first_kid(p: P<'_>) -> R<P<'_>> {
    let at = span(&p);
    next(&mut kids(p), &at)
}

fn expr(p: P<'_>) -> R<Expr> {
    expr_any(p)
}

/// Lowers any expression-level pair.
fn expr_any(p: P<'_>) -> R<Expr> {
    let at = span(&p);
    match p.as_rule() {
        Rule::expr | Rule::let_value => expr_any(first_kid(p)?),
        Rule::disj | Rule::conj | Rule::concat | Rule::sum | Rule::product => binary_chain(p),
        Rule::cmp | Rule::let_disj | Rule::let_conj | Rule::let_cmp => binary_chain(p),
        Rule::neg | Rule::let_neg => prefix_chain(p, UnOp::Not),
        Rule::unary => prefix_chain(p, UnOp::Neg),
        Rule::postfix => postfix(p),
        _ => primary(p, at),
    }
}

/// Refuses a chain of more than `MAX_CHAIN` links: each is a level of the tree, and every
/// later stage walks the tree recursively.
fn chain_ok(links: usize, at: &Span) -> R<()> {
    if links > super::MAX_CHAIN {
        let message = format!("a chain of more than {} operators or accessors", super::MAX_CHAIN);
        return Err(Diag::new(codes::TOO_DEEP, message)
            .label(at.start..at.start + 1, "this expression")
            .help("split it with `let` or a helper `fn`"));
    }
    Ok(())
}

fn binary_chain(p: P<'_>) -> R<Expr> {
    let at = span(&p);
    chain_ok(p.clone().into_inner().count() / 2, &at)?;
    let mut it = kids(p);
    let mut left = expr_any(next(&mut it, &at)?)?;
    while let Some(op) = it.next() {
        let right = expr_any(next(&mut it, &at)?)?;
        let joined = left.span.start..right.span.end;
        left = Expr { kind: ExprKind::Binary(bin_op(&op), Box::new(left), Box::new(right)), span: joined };
    }
    Ok(left)
}

fn bin_op(p: &P<'_>) -> BinOp {
    let text: String = p.as_str().split_whitespace().collect::<Vec<_>>().join(" ");
    match text.as_str() {
        "or" => BinOp::Or,
        "and" => BinOp::And,
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        "<" => BinOp::Lt,
        "<=" => BinOp::Le,
        ">" => BinOp::Gt,
        ">=" => BinOp::Ge,
        "in" => BinOp::In,
        "not in" => BinOp::NotIn,
        "++" => BinOp::Concat,
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        _ => BinOp::Rem,
    }
}

fn prefix_chain(p: P<'_>, op: UnOp) -> R<Expr> {
    let at = span(&p);
    let kids: Vec<P<'_>> = kids(p).collect();
    chain_ok(kids.len(), &at)?;
    let (ops, rest) = kids.split_at(kids.len().saturating_sub(1));
    let last =
        rest.first().cloned().ok_or_else(|| Diag::new(codes::SYNTAX, "missing operand").label(at.clone(), "here"))?;
    let mut e = expr_any(last)?;
    for o in ops.iter().rev() {
        e = Expr { kind: ExprKind::Unary(op, Box::new(e)), span: o.as_span().start()..at.end };
    }
    Ok(e)
}

fn postfix(p: P<'_>) -> R<Expr> {
    let at = span(&p);
    chain_ok(p.clone().into_inner().count(), &at)?;
    let mut it = kids(p);
    let mut e = expr_any(next(&mut it, &at)?)?;
    for op in it {
        let end = op.as_span().end();
        let whole = e.span.start..end;
        let kind = match op.as_rule() {
            Rule::field => ExprKind::Field(Box::new(e), name(first_kid(op)?)),
            _ => bracket(e, op)?,
        };
        e = Expr { kind, span: whole };
    }
    Ok(e)
}

/// `[i]` (an index) or `[a..b]` (a slice, either end optional).
fn bracket(base: Expr, p: P<'_>) -> R<ExprKind> {
    let at = span(&p);
    let mut lo = None;
    let mut hi = None;
    let mut seen_dots = false;
    for c in kids(p) {
        match c.as_rule() {
            Rule::dotdot => seen_dots = true,
            _ if seen_dots => hi = Some(Box::new(expr(c)?)),
            _ => lo = Some(Box::new(expr(c)?)),
        }
    }
    match (seen_dots, lo) {
        (true, lo) => Ok(ExprKind::Slice(Box::new(base), lo, hi)),
        (false, Some(i)) => Ok(ExprKind::Index(Box::new(base), i)),
        (false, None) => Err(Diag::new(codes::SYNTAX, "an index needs a value: `xs[i]`").label(at, "empty brackets")),
    }
}

fn primary(p: P<'_>, at: Span) -> R<Expr> {
    let rule = p.as_rule();
    let kind = match rule {
        Rule::int => ExprKind::Int(int_value(&p)?),
        Rule::string => ExprKind::Str(template(p)?),
        Rule::true_lit => ExprKind::Bool(true),
        Rule::false_lit => ExprKind::Bool(false),
        Rule::null_lit => ExprKind::Null,
        Rule::table_lit => ExprKind::Table,
        Rule::ident => ExprKind::Name(name(p)),
        Rule::if_expr => return if_expr(p, at),
        Rule::quantifier => quantifier(p, &at)?,
        Rule::let_expr => {
            let mut it = kids(p);
            let var = name(next(&mut it, &at)?);
            let value = expr(next(&mut it, &at)?)?;
            let body = expr(next(&mut it, &at)?)?;
            ExprKind::Let(var, Box::new(value), Box::new(body))
        }
        Rule::list_expr => list_expr(p, &at)?,
        Rule::record_lit => ExprKind::Record(kids(p).map(record_entry).collect::<R<_>>()?),
        Rule::call => {
            let mut it = kids(p);
            let n = name(next(&mut it, &at)?);
            ExprKind::Call(
                n,
                match it.next() {
                    Some(a) => args(a)?,
                    None => vec![],
                },
            )
        }
        Rule::lambda => {
            let mut it = kids(p);
            let n = name(next(&mut it, &at)?);
            ExprKind::Lambda(n, Box::new(expr(next(&mut it, &at)?)?))
        }
        _ => return Err(shape_error(&p)),
    };
    Ok(Expr { kind, span: at })
}

fn quantifier(p: P<'_>, at: &Span) -> R<ExprKind> {
    let mut it = kids(p);
    let all = next(&mut it, at)?.as_rule() == Rule::all_kw;
    let var = name(next(&mut it, at)?);
    let coll = expr_any(next(&mut it, at)?)?;
    next(&mut it, at)?; // colon
    let body = expr(next(&mut it, at)?)?;
    Ok(ExprKind::Quantifier { all, var, coll: Box::new(coll), body: Box::new(body) })
}

/// `if C then A else if D then B else E`, its `else if` arms nested from the last outwards.
fn if_expr(p: P<'_>, at: Span) -> R<Expr> {
    let mut arms: Vec<(Expr, Expr, usize)> = vec![];
    let mut last = None;
    let mut it = kids(p);
    let cond = expr(next(&mut it, &at)?)?;
    arms.push((cond, expr(next(&mut it, &at)?)?, at.start));
    for c in it {
        chain_ok(arms.len(), &at)?;
        if c.as_rule() == Rule::else_if_expr {
            let arm_at = span(&c);
            let mut inner = kids(c);
            let cond = expr(next(&mut inner, &arm_at)?)?;
            arms.push((cond, expr(next(&mut inner, &arm_at)?)?, arm_at.start));
        } else {
            last = Some(expr(c)?);
        }
    }
    let mut otherwise = last.ok_or_else(|| shape_error_at(&at))?;
    while let Some((cond, then, start)) = arms.pop() {
        let kind = ExprKind::If(Box::new(cond), Box::new(then), Box::new(otherwise));
        otherwise = Expr { kind, span: start..at.end };
    }
    Ok(otherwise)
}

/// `[A, B]`, or `[BODY for x in XS where COND]`.
fn list_expr(p: P<'_>, at: &Span) -> R<ExprKind> {
    let parts: Vec<P<'_>> = kids(p).collect();
    match parts.as_slice() {
        [body, tail] if tail.as_rule() == Rule::comprehension => comprehension(body.clone(), tail.clone(), at),
        _ => Ok(ExprKind::List(parts.into_iter().map(expr).collect::<R<_>>()?)),
    }
}

fn comprehension(body: P<'_>, tail: P<'_>, at: &Span) -> R<ExprKind> {
    let body = expr(body)?;
    let mut it = kids(tail);
    let var = name(next(&mut it, at)?);
    let mut c = next(&mut it, at)?;
    let mut var2 = None;
    if c.as_rule() == Rule::ident {
        var2 = Some(name(c));
        c = next(&mut it, at)?;
    }
    let coll = expr(c)?;
    let cond = match it.next() {
        Some(w) => Some(Box::new(expr(w)?)),
        None => None,
    };
    Ok(ExprKind::Comprehension { body: Box::new(body), var, var2, coll: Box::new(coll), cond })
}

fn record_entry(p: P<'_>) -> R<(Name, Expr)> {
    let at = span(&p);
    let mut it = kids(p);
    let n = name(next(&mut it, &at)?);
    next(&mut it, &at)?; // colon
    Ok((n, expr(next(&mut it, &at)?)?))
}

fn int_value(p: &P<'_>) -> R<i64> {
    p.as_str().parse().map_err(|_| Diag::new(codes::SYNTAX, "number too large").label(span(p), "here"))
}

fn template(p: P<'_>) -> R<Template> {
    let at = span(&p);
    let mut parts = vec![];
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::str_text => parts.push(TemplatePart::Text(c.as_str().to_string())),
            Rule::str_escape => parts.push(TemplatePart::Text(unescape(c.as_str()))),
            Rule::interp => parts.push(TemplatePart::Expr(expr(first_kid(c)?)?)),
            _ => {}
        }
    }
    Ok(Template { parts, span: at })
}

fn unescape(s: &str) -> String {
    match s {
        "\\n" => "\n".into(),
        "\\t" => "\t".into(),
        _ => s.chars().skip(1).collect(),
    }
}

/// A string without holes, as used for codes and rule texts.
fn plain_string(p: P<'_>) -> String {
    p.into_inner()
        .map(|c| match c.as_rule() {
            Rule::str_escape => unescape(c.as_str()),
            _ => c.as_str().to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    /// Every keyword token of the grammar is left out of the children lowering sees.
    #[test]
    fn every_keyword_rule_is_known() {
        let grammar = include_str!("../../../grammar/spec.pest");
        let listed = include_str!("lower.rs");
        for line in grammar.lines().filter(|l| l.starts_with("k_")) {
            let name = line.split_whitespace().next().unwrap_or_default();
            let token = format!("Rule::{name}");
            let named = listed.match_indices(&token).any(|(at, _)| {
                !listed[at + token.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            });
            assert!(named, "{name} is missing from is_keyword");
        }
    }
}
