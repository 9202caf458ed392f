//! Statements, and the waiting points where events are consumed.

use super::eval::bind;
use super::legal::Pick;
use super::suspend::Resume;
use super::{Candidate, Ctl, Event, Machine, Run, Source, Stop, Violation};
use crate::lang::ast::{AssignOp, BinOp};
use crate::program::value::Value;
use crate::program::{Block, Branch, Choose, E, S, St, Target, X};

/// The legal actions at a point: in words, the first of them as candidates, and how many.
type LegalHere = (Vec<String>, Vec<Candidate>, usize);

/// A check that failed: its rule, the message, and the `require` in the rules file.
type Failed = Option<(u16, String, crate::span::Span)>;

/// The shared rule ids the engine itself reports, by their index in `Program::rules`.
pub const AFTER_GAME_END: u16 = 0;
pub const UNEXPECTED_ACTION: u16 = 1;
pub const TURN_ORDER: u16 = 2;

impl<'p> Machine<'p> {
    pub(super) fn exec_block(&mut self, block: &'p Block, frame: &mut Vec<Value>) -> Run<Ctl> {
        let Some(first) = block.first() else { return Ok(Ctl::Next) };
        self.enter(&first.span)?;
        let out = self.exec_statements(block, frame);
        self.nesting -= 1;
        out
    }

    fn exec_statements(&mut self, block: &'p Block, frame: &mut Vec<Value>) -> Run<Ctl> {
        let mut from = 0;
        // Back where a live game waited: the statement it waited in goes on where it was.
        if let Some(&Resume::Block(at)) = self.resume.last() {
            self.resume.pop();
            let Some(s) = block.get(at) else { return Err(self.lost_place()) };
            let out = self.exec_resumed(s, frame);
            if let Some(leave) = self.after_statement(out, at) {
                return leave;
            }
            from = at + 1;
        }
        for (i, s) in block.iter().enumerate().skip(from) {
            let out = self.exec(s, frame);
            if let Some(leave) = self.after_statement(out, i) {
                return leave;
            }
        }
        Ok(Ctl::Next)
    }

    /// After statement `at` of a block: on to the next (`None`), or out of the block with what
    /// the statement gave, a stop for an event noting where it left the block.
    #[inline]
    fn after_statement(&mut self, out: Run<Ctl>, at: usize) -> Option<Run<Ctl>> {
        match out {
            Ok(Ctl::Next) => None,
            Ok(ctl) => Some(Ok(ctl)),
            Err(stop) => {
                self.unwinding(&stop, || Resume::Block(at));
                Some(Err(stop))
            }
        }
    }

    fn exec(&mut self, s: &'p S, frame: &mut Vec<Value>) -> Run<Ctl> {
        self.burn(&s.span)?;
        match &s.s {
            St::Let(slot, x) => {
                let v = self.eval(x, frame)?;
                self.shallow_enough(&v, &x.span)?;
                bind(frame, *slot, v);
            }
            St::Require { .. } => {}
            St::If(c, a, b) => {
                let arm = self.truth(c, frame)?;
                return self.exec_arm(arm, a, b, frame);
            }
            St::For { slot, slot2, coll, body } => {
                let entries = self.entries(coll, slot2.is_some(), frame)?;
                return self.for_rounds(entries, false, (*slot, *slot2, coll), body, frame);
            }
            St::While(c, body) => return self.rounds(Some(c), body, s, false, frame),
            St::Loop(body) => return self.rounds(None, body, s, false, frame),
            St::Choose(c) => return self.choose(c, frame),
            St::Break => return Ok(Ctl::Break),
            St::Continue => return Ok(Ctl::Continue),
            St::Again => return Ok(Ctl::Again),
            St::Settle => self.settle()?,
            St::Open(action) => self.open_windows[*action as usize] = true,
            St::Note(text) => {
                let message = self.template(text, frame)?;
                self.keep_note(message, &s.span);
            }
            St::Finish(now) => {
                self.finish_at(&s.span);
                if *now {
                    return Err(Stop::finished());
                }
            }
            St::Assign { target, path, op, value } => self.assign(*target, path, *op, value, frame, s)?,
            St::Call(p, args) => self.call_proc(*p, args, frame, s)?,
        }
        Ok(Ctl::Next)
    }

    /// A statement on the way back to where the game waited: it goes on where it was, and
    /// what it paid and evaluated before it waited (fuel, a condition, the items of a loop, a
    /// call's arguments) is not paid or evaluated again.
    fn exec_resumed(&mut self, s: &'p S, frame: &mut Vec<Value>) -> Run<Ctl> {
        let level = self.resume.pop();
        match (&s.s, level) {
            (St::If(_, a, b), Some(Resume::If(arm))) => self.exec_arm(arm, a, b, frame),
            (St::For { slot, slot2, coll, body }, Some(Resume::For(entries))) => {
                self.for_rounds(entries, true, (*slot, *slot2, coll), body, frame)
            }
            (St::While(c, body), Some(Resume::Round)) => self.rounds(Some(c), body, s, true, frame),
            (St::Loop(body), Some(Resume::Round)) => self.rounds(None, body, s, true, frame),
            (St::Choose(c), Some(level)) => {
                self.resume.push(level);
                self.choose(c, frame)
            }
            (St::Settle, Some(level)) => {
                self.resume.push(level);
                self.settle()?;
                Ok(Ctl::Next)
            }
            (St::Call(p, args), Some(level)) => {
                self.resume.push(level);
                self.call_proc(*p, args, frame, s)?;
                Ok(Ctl::Next)
            }
            _ => Err(self.lost_place()),
        }
    }

    fn exec_arm(&mut self, arm: bool, a: &'p Block, b: &'p Block, frame: &mut Vec<Value>) -> Run<Ctl> {
        let out = self.exec_block(if arm { a } else { b }, frame);
        if let Err(stop) = &out {
            self.unwinding(stop, || Resume::If(arm));
        }
        out
    }

    /// The rounds of a `for` loop from its next entry on (`resumed`: from the body of the
    /// round under way).
    fn for_rounds(
        &mut self,
        mut entries: super::eval::Entries,
        mut resumed: bool,
        (slot, slot2, coll): (u16, Option<u16>, &X),
        body: &'p Block,
        frame: &mut Vec<Value>,
    ) -> Run<Ctl> {
        loop {
            if !resumed {
                if !entries.more() {
                    break;
                }
                self.burn(&coll.span)?;
                entries.bind_next(frame, slot, slot2);
            }
            resumed = false;
            match self.exec_block(body, frame) {
                Ok(Ctl::Break) => break,
                Ok(Ctl::Again) => return Ok(Ctl::Again),
                Ok(_) => {}
                Err(stop) => {
                    self.unwinding(&stop, || Resume::For(entries));
                    return Err(stop);
                }
            }
        }
        Ok(Ctl::Next)
    }

    /// The rounds of a `while` (with its condition) or a `loop` (`resumed`: from the body of
    /// the round under way). Each round pays, so that a loop with an empty body still runs
    /// out of fuel.
    fn rounds(
        &mut self,
        cond: Option<&X>,
        body: &'p Block,
        s: &S,
        mut resumed: bool,
        frame: &mut Vec<Value>,
    ) -> Run<Ctl> {
        loop {
            if !resumed {
                self.burn(&s.span)?;
                if let Some(c) = cond
                    && !self.truth(c, frame)?
                {
                    break;
                }
            }
            resumed = false;
            match self.exec_block(body, frame) {
                Ok(Ctl::Break) => break,
                Ok(Ctl::Again) => return Ok(Ctl::Again),
                Ok(_) => {}
                Err(stop) => {
                    self.unwinding(&stop, || Resume::Round);
                    return Err(stop);
                }
            }
        }
        Ok(Ctl::Next)
    }

    fn assign(
        &mut self,
        target: Target,
        path: &[X],
        op: AssignOp,
        value: &X,
        frame: &mut Vec<Value>,
        s: &S,
    ) -> Run<()> {
        if op == AssignOp::Set
            && matches!(value.e, E::Binary(BinOp::Add | BinOp::Sub, ..))
            && let Some(done) = self.assign_in_place(target, path, value, frame, s)
        {
            return done;
        }
        // Most paths are one key (`vp[p] += 1`) or none: read without a list made for them.
        let one;
        let many;
        let keys: &[Value] = match path {
            [] => &[],
            [key] => {
                one = self.operand(key, frame)?;
                std::slice::from_ref(&one)
            }
            _ => {
                many = path.iter().map(|k| self.eval(k, frame)).collect::<Run<Vec<_>>>()?;
                &many
            }
        };
        let new = self.operand(value, frame)?;
        // The path adds its own levels above the new value.
        if new.deeper_than(self.limits.value_depth.saturating_sub(keys.len())) {
            return Err(self.too_deep_value(&value.span));
        }
        // Written out rather than through `in_place`'s helpers for the same: called here, they
        // cost every assignment (0.3% of checking a game whose rules have no statement to run in
        // place).
        if let Target::Global(g) = target
            && let Some(count) = self.versions.get_mut(g as usize)
        {
            *count = count.wrapping_add(1);
        }
        let slot = match target {
            Target::Global(g) => self.globals.get_mut(g as usize),
            Target::Local(l) => frame.get_mut(l as usize),
        };
        let Some(slot) = slot else { return Err(self.spec_error(&s.span, "assignment to nothing".into())) };
        // `x = v` replaces the whole value: nothing is looked through, no work is paid.
        if keys.is_empty() && op == AssignOp::Set {
            *slot = new;
            return Ok(());
        }
        let mut root = std::mem::replace(slot, Value::Null);
        // Each step of the path compares its key with the keys of a map.
        let mut work = 0;
        let result = update(&mut root, keys, op, new, self.limits.list_items, &mut work);
        let cap = usize::try_from(self.fuel).unwrap_or(usize::MAX);
        let work = work.saturating_mul(keys.iter().map(|k| k.weight(cap)).max().unwrap_or(1));
        let slot = match target {
            Target::Global(g) => self.globals.get_mut(g as usize),
            Target::Local(l) => frame.get_mut(l as usize),
        };
        if let Some(slot) = slot {
            *slot = root;
        }
        result.map_err(|m| self.spec_error(&s.span, m))?;
        self.burn_n(work, &s.span)
    }

    fn call_proc(&mut self, p: u16, args: &[X], frame: &mut Vec<Value>, s: &S) -> Run<()> {
        let proc_ = self.callable(p, args, s)?;
        let mut inner = match self.resume.pop() {
            Some(Resume::Call(inner)) => inner,
            Some(_) => return Err(self.lost_place()),
            None => self.frame_of_args(proc_.locals, args, frame)?,
        };
        self.depth += 1;
        let out = self.exec_block(&proc_.body, &mut inner);
        self.depth -= 1;
        match out {
            Err(stop) if stop.is_wait() => {
                self.unwound.push(Resume::Call(inner));
                Err(stop)
            }
            out => {
                self.give_frame(inner);
                out.map(|_| ())
            }
        }
    }

    /// Runs a `check` helper's checks in its own frame; the first that fails, if any.
    fn check_helper(&mut self, p: u16, args: &[X], frame: &mut Vec<Value>, s: &S) -> Run<Failed> {
        let helper = self.callable(p, args, s)?;
        self.with_args(helper.locals, args, frame, |m, inner| m.checks(&helper.body, inner))
    }

    /// The procedure `p`, if these arguments fit it and calls are not too deep already.
    fn callable(&self, p: u16, args: &[X], s: &S) -> Run<&'p crate::program::Proc> {
        let prog = self.prog;
        let proc_ = &prog.procs[p as usize];
        if args.len() != proc_.arity {
            return Err(self.spec_error(&s.span, format!("`{}` takes {} argument(s)", proc_.name, proc_.arity)));
        }
        if self.depth >= self.limits.call_depth {
            return Err(self.spec_error(&s.span, "procedures call each other too deep".into()));
        }
        Ok(proc_)
    }

    // ------------------------------------------------------------ waiting points

    /// Waits at a `choose` for the next event and runs the branch it takes.
    fn choose(&mut self, c: &'p Choose, frame: &mut Vec<Value>) -> Run<Ctl> {
        match self.resume.last() {
            Some(Resume::Effects { .. }) => match self.resume_effects(Some(c), frame)? {
                Dispatch::Otherwise => return self.no_branch_taken(c, frame),
                Dispatch::Stay => {}
                Dispatch::Taken(ctl) => return Ok(ctl),
            },
            Some(Resume::Otherwise) => {
                self.resume.pop();
                return self.otherwise(c, frame);
            }
            _ => {}
        }
        loop {
            // Where the game waited, the due steps before the event have run already.
            if !matches!(self.resume.last(), Some(Resume::Wait(_))) {
                self.settle()?;
            }
            let Some(event) = self.next_event(Some(c), frame)? else {
                return self.no_branch_taken(c, frame);
            };
            match self.dispatch(&event, Some(c), frame)? {
                Dispatch::Otherwise => return self.no_branch_taken(c, frame),
                Dispatch::Stay => continue,
                Dispatch::Taken(ctl) => return Ok(ctl),
            }
        }
    }

    /// Runs the `due` steps: the first whose condition holds, then again from the first,
    /// until none holds (or the game is over). Not inside a due step: its own waits run none.
    fn settle(&mut self) -> Run<()> {
        if self.settling || self.prog.dues.is_empty() {
            return Ok(());
        }
        self.settling = true;
        let out = self.run_dues();
        self.settling = false;
        out
    }

    fn run_dues(&mut self) -> Run<()> {
        let prog = self.prog;
        if let Some(Resume::Due(..)) = self.resume.last()
            && let Some(Resume::Due(i, inner)) = self.resume.pop()
        {
            self.due_step(i, inner)?;
        }
        while !self.finished {
            let mut ran = false;
            for (i, due) in prog.dues.iter().enumerate() {
                self.burn(&due.cond.span)?;
                let mut frame = self.take_frame(due.locals);
                let holds = self.truth_remembered(i, &due.cond, &mut frame);
                self.give_frame(frame);
                if holds? {
                    let inner = self.take_frame(prog.procs[due.proc_ as usize].locals);
                    self.due_step(i, inner)?;
                    ran = true;
                    break;
                }
            }
            if !ran {
                break;
            }
        }
        Ok(())
    }

    /// Runs the body of `due` step `i` in its frame `inner`.
    fn due_step(&mut self, i: usize, mut inner: Vec<Value>) -> Run<()> {
        let prog = self.prog;
        let Some(due) = prog.dues.get(i) else { return Err(self.lost_place()) };
        let out = self.exec_block(&prog.procs[due.proc_ as usize].body, &mut inner);
        match out {
            Err(stop) if stop.is_wait() => {
                self.unwound.push(Resume::Due(i, inner));
                Err(stop)
            }
            out => {
                self.give_frame(inner);
                out.map(|_| ())
            }
        }
    }

    /// After the flow has run out: only the `always` actions remain open.
    pub(super) fn wait_after_flow(&mut self) -> Run<()> {
        let mut frame = vec![];
        if let Some(Resume::Effects { .. }) = self.resume.last() {
            self.resume_effects(None, &mut frame)?;
        }
        loop {
            let Some(event) = self.next_event(None, &mut frame)? else { return Ok(()) };
            self.dispatch(&event, None, &mut frame)?;
        }
    }

    fn no_branch_taken(&mut self, c: &'p Choose, frame: &mut Vec<Value>) -> Run<Ctl> {
        match &c.otherwise {
            Some(_) if self.optional(Some(c), frame)? => self.otherwise(c, frame),
            _ => Err(Stop::end()),
        }
    }

    /// Runs a waiting point's `otherwise` block.
    fn otherwise(&mut self, c: &'p Choose, frame: &mut Vec<Value>) -> Run<Ctl> {
        let Some(block) = &c.otherwise else { return Err(Stop::end()) };
        let out = self.exec_block(block, frame);
        if let Err(stop) = &out {
            self.unwinding(stop, || Resume::Otherwise);
        }
        out
    }

    /// Whether a waiting point may be left without an event (`otherwise`, and its guard).
    pub(super) fn optional(&mut self, c: Option<&'p Choose>, frame: &mut Vec<Value>) -> Run<bool> {
        let Some(c) = c else { return Ok(false) };
        if c.otherwise.is_none() {
            return Ok(false);
        }
        match &c.optional_while {
            Some(guard) => self.truth(guard, frame),
            None => Ok(true),
        }
    }

    /// The next event, or `None` when the point may be left without one (an `otherwise`
    /// in a random playout). At the end of the events, `Stop::end()` unless `otherwise` runs.
    fn next_event(&mut self, c: Option<&'p Choose>, frame: &mut Vec<Value>) -> Run<Option<Event>> {
        // Back where a live game waited: what was worked out before it waited stands.
        if let Some(&Resume::Wait(has_otherwise)) = self.resume.last() {
            self.resume.pop();
            return self.live_event(c, frame, has_otherwise);
        }
        let has_otherwise = self.optional(c, frame)?;
        if self.draining {
            return if has_otherwise { Ok(None) } else { Err(Stop::end()) };
        }
        if let (Source::Transcript { pos, .. }, Some(_)) = (&self.source, &self.states) {
            self.record_state(*pos);
        }
        match &self.source {
            Source::Transcript { pos, .. } => self.record_changes(*pos),
            Source::Live(_) => {
                self.record_changes(self.taken);
                return self.live_event(c, frame, has_otherwise);
            }
            _ => {}
        }
        if let Source::Transcript { events, pos } = &self.source {
            return match events.get(*pos) {
                Some(e) => Ok(Some(e.clone())),
                None if has_otherwise => Ok(None),
                None => Err(Stop::end()),
            };
        }
        if let Source::Probe { events, pos, .. } = &self.source {
            if let Some(e) = events.get(*pos) {
                return Ok(Some(e.clone()));
            }
            return self.legal_for_probe(c, frame, has_otherwise);
        }
        match self.pick_random(c, frame)? {
            Pick::Event(e) => Ok(Some(e)),
            Pick::Otherwise => Ok(None),
            Pick::Stop => Err(Stop::end()),
        }
    }

    /// Adds what is legal here to a probe's listing, past its events: leaves a point that may
    /// be left without an event for the next, as a live game's listing does.
    fn legal_for_probe(
        &mut self,
        c: Option<&'p Choose>,
        frame: &mut Vec<Value>,
        has_otherwise: bool,
    ) -> Run<Option<Event>> {
        let point = self.legal_at_point(c, frame, has_otherwise)?;
        if let Source::Probe { legal, judged, .. } = &mut self.source {
            super::legal::add_point(legal.get_or_insert_default(), judged, point);
        }
        if has_otherwise { Ok(None) } else { Err(Stop::end()) }
    }

    /// Judges one event at a waiting point: the shared ids first, then the branch's checks.
    fn dispatch(&mut self, event: &Event, c: Option<&'p Choose>, frame: &mut Vec<Value>) -> Run<Dispatch> {
        if let Some(passed) = self.passed.take()
            && passed.branch.action == event.action
        {
            return self.play_passed(passed, c, frame);
        }
        let open = self.open_branches(c, frame)?;
        // The branches open for the event's action, found again where needed rather than
        // collected: one list fewer an event.
        let named = || open.iter().filter(|(b, ..)| b.action == event.action);
        let Some((first, ..)) = named().next() else {
            if self.optional(c, frame)? {
                self.left_optional_for = Some(event.index);
                return Ok(Dispatch::Otherwise);
            }
            let rule = if self.finished { AFTER_GAME_END } else { UNEXPECTED_ACTION };
            let at = c.map_or_else(|| self.where_the_flow_ended(), |c| c.span.clone());
            return self.violate(rule, event, self.not_open_message(event), at, c, frame);
        };
        let Some((branch, ambient)) = named().find(|(_, actors, _)| actors.includes(&event.actor)).map(|t| (t.0, t.2))
        else {
            let actors: Vec<Value> = named().flat_map(|(_, a, _)| a.iter().cloned()).collect();
            let message = format!(
                "{} may not take `{}` now; only {} may",
                self.who(&event.actor),
                self.prog.actions[event.action as usize].name,
                self.list_words(&actors)
            );
            let at = first.span.start..first.actors.span.end;
            return self.violate(TURN_ORDER, event, message, at, c, frame);
        };
        self.give_open(open);
        // A frame of its own for an `always` branch only: the waiting point's branches run in
        // the flow's frame (as in `passes`).
        let mut own = if ambient { self.take_frame(self.prog.always_locals) } else { vec![] };
        self.broken_now.clear();
        let failed = if ambient {
            self.run_checks(branch, &event.actor, &event.arg, &mut own)?
        } else {
            self.run_checks(branch, &event.actor, &event.arg, frame)?
        };
        if let Some((rule, message, at)) = failed {
            // Standing checks the event broke before this one are reported too, in order; none
            // is paid for, since the move is not played.
            if !self.broken_now.is_empty() {
                self.let_stand(event, c, frame)?;
            }
            return self.violate(rule, event, message, at, c, frame);
        }
        let costs = if self.broken_now.is_empty() {
            vec![]
        } else {
            let costs = self.let_stand(event, c, frame)?;
            // Listing what was legal ran other arguments through the checks: this event's run
            // again, so that its effects see its own bindings.
            let frame_of_checks = if ambient { &mut own } else { &mut *frame };
            self.run_checks(branch, &event.actor, &event.arg, frame_of_checks)?;
            self.broken_now.clear();
            costs
        };
        self.consume();
        // What the broken rules cost, before the move's own effects.
        for (block, mut names) in costs {
            self.exec_block(block, &mut names)?;
        }
        self.play_effects(branch, ambient, own, (c, frame))
    }

    /// Plays an event a random playout drew after it passed its branch's checks: what
    /// `dispatch` does after judging it.
    fn play_passed(
        &mut self,
        passed: super::Passed<'p>,
        c: Option<&'p Choose>,
        frame: &mut Vec<Value>,
    ) -> Run<Dispatch> {
        let super::Passed { branch, ambient, frame: own } = passed;
        self.consume();
        self.play_effects(branch, ambient, own, (c, frame))
    }

    /// A taken branch's effects, in its own frame for an `always` branch (`own`), else in the
    /// waiting point's. The frame is kept for the next event (a frame taken and dropped at
    /// every event was an allocation an event); effects that wait have taken it with them.
    fn play_effects(
        &mut self,
        branch: &'p Branch,
        ambient: bool,
        mut own: Vec<Value>,
        at: (Option<&'p Choose>, &mut Vec<Value>),
    ) -> Run<Dispatch> {
        self.close_windows(branch, ambient);
        let out = self.effects(branch, ambient, &mut own, at);
        self.give_frame(own);
        out
    }

    fn effects(
        &mut self,
        branch: &'p Branch,
        ambient: bool,
        own: &mut Vec<Value>,
        (c, frame): (Option<&'p Choose>, &mut Vec<Value>),
    ) -> Run<Dispatch> {
        let ctl = match self.exec_block(&branch.effects, if ambient { own } else { frame }) {
            Ok(ctl) => ctl,
            Err(stop) => {
                if stop.is_wait() {
                    let place = if ambient { &self.prog.always[..] } else { c.map_or(&[][..], |c| &c.branches[..]) };
                    let index = place.iter().position(|b| std::ptr::eq(b, branch)).unwrap_or(usize::MAX);
                    self.unwound.push(Resume::Effects { branch: index, ambient, own: std::mem::take(own) });
                }
                return Err(stop);
            }
        };
        Ok(if ambient || ctl == Ctl::Again { Dispatch::Stay } else { Dispatch::Taken(ctl) })
    }

    /// Back into the effects of the branch that took the last event, where they waited.
    fn resume_effects(&mut self, c: Option<&'p Choose>, frame: &mut Vec<Value>) -> Run<Dispatch> {
        let Some(Resume::Effects { branch, ambient, mut own }) = self.resume.pop() else {
            return Err(self.lost_place());
        };
        let place = if ambient { &self.prog.always[..] } else { c.map_or(&[][..], |c| &c.branches[..]) };
        let Some(taken) = place.get(branch) else { return Err(self.lost_place()) };
        self.effects(taken, ambient, &mut own, (c, frame))
    }

    /// Keeps the standing violations the event made, each with what was legal instead; gives
    /// back their `costs` blocks to run.
    fn let_stand(
        &mut self,
        event: &Event,
        c: Option<&'p Choose>,
        frame: &mut Vec<Value>,
    ) -> Run<Vec<(&'p Block, Vec<Value>)>> {
        let broken = std::mem::take(&mut self.broken_now);
        // Moves stand only in a check of a whole transcript (`check --all`), which lists what
        // the point offers: each of many violations would run the game again to list more.
        let ((legal, legal_events, legal_count), _) = self.legal_here(event, false, c, frame)?;
        let mut costs = vec![];
        for b in broken {
            let (legal, legal_events) = (legal.clone(), legal_events.clone());
            let (rule, message, spec_span, event) = (b.rule, b.message, b.at, event.index);
            let (state, history) = (self.view_state(), self.history_read_at(&spec_span));
            self.stood.push(Violation {
                rule,
                event,
                message,
                spec_span,
                legal,
                legal_events,
                legal_count,
                listed_where_judged: false,
                state,
                history,
            });
            costs.extend(b.cost);
        }
        Ok(costs)
    }

    /// The game ends at `at`, unless it already has: the first `finish` run is where it ended
    /// (a record taken after the end, which runs a `finish` of its own, does not move it).
    fn finish_at(&mut self, at: &crate::span::Span) {
        if !self.finished {
            self.finished_at = at.clone();
        }
        self.finished = true;
    }

    /// Where an event after the flow is judged: the `finish` that ended the game, or the last
    /// statement of a flow that ran out without one.
    pub(super) fn where_the_flow_ended(&self) -> crate::span::Span {
        if self.finished_at != (0..0) {
            return self.finished_at.clone();
        }
        self.prog.flow.last().map_or(0..0, |s| s.span.clone())
    }

    /// A window closes when it is taken, and every window when an event of the flow is.
    fn close_windows(&mut self, taken: &Branch, ambient: bool) {
        if !ambient {
            self.open_windows.fill(false);
        } else if taken.window {
            self.open_windows[taken.action as usize] = false;
        }
    }

    fn consume(&mut self) {
        self.refuel();
        self.taken += 1;
        match &mut self.source {
            Source::Transcript { pos, .. } | Source::Probe { pos, .. } => *pos += 1,
            // Taken: the next point waits for the next event.
            Source::Live(live) => {
                live.pending = None;
                live.mode = super::LiveMode::Wait;
            }
            Source::Random { .. } => {}
        }
    }

    /// Records the first violation, then lets the game run on as if the transcript had
    /// ended just before the event, so pending outcomes (an `otherwise`) still settle.
    fn violate(
        &mut self,
        rule: u16,
        event: &Event,
        message: String,
        at: crate::span::Span,
        c: Option<&'p Choose>,
        frame: &mut Vec<Value>,
    ) -> Run<Dispatch> {
        let optional = self.optional(c, frame)?;
        let ((legal, legal_events, legal_count), listed_where_judged) = self.legal_here(event, optional, c, frame)?;
        let (state, history) = (self.view_state(), self.history_read_at(&at));
        let event = event.index;
        let violation = Violation {
            rule,
            event,
            message,
            spec_span: at,
            legal,
            legal_events,
            legal_count,
            listed_where_judged,
            state,
            history,
        };
        self.violation = Some(violation);
        self.draining = true;
        if optional {
            return Ok(Dispatch::Otherwise);
        }
        Err(Stop::end())
    }

    /// Keeps the state as it is when event `pos` is awaited: the state after event `pos - 1`
    /// (the last time it is awaited, after any `otherwise` has run).
    fn record_state(&mut self, pos: usize) {
        let Some(after) = pos.checked_sub(1) else { return };
        let state = self.view_state();
        let Some(states) = &mut self.states else { return };
        match states.last_mut() {
            Some((last, kept)) if *last == after => *kept = state,
            _ => states.push((after, state)),
        }
    }

    /// Notes each `history` variable that changed since it was last seen, as changed by the
    /// event before `pos`.
    fn record_changes(&mut self, pos: usize) {
        for (i, &g) in self.prog.history.iter().enumerate() {
            let now = &self.globals[g as usize];
            if self.changes[i].last().is_none_or(|(_, last)| last != now) {
                self.changes[i].push((pos.checked_sub(1), now.clone()));
            }
        }
    }

    /// The changes of the `history` variables that the check stated at `at` reads.
    fn history_read_at(&self, at: &crate::span::Span) -> Vec<(u16, super::Changes)> {
        if self.prog.history.is_empty() {
            return vec![];
        }
        let mut read = vec![];
        let checks = self.prog.statements_where(|s| matches!(s, St::Require { .. }));
        if let Some(S { s: St::Require { cond, message, .. }, .. }) = checks.into_iter().find(|s| s.span == *at) {
            self.prog.variables_read(cond, &mut read, &mut vec![]);
            for part in message {
                if let crate::program::Part::Expr(x) = part {
                    self.prog.variables_read(x, &mut read, &mut vec![]);
                }
            }
        }
        let kept = self.prog.history.iter().zip(&self.changes);
        kept.filter(|(g, _)| read.contains(g)).map(|(g, c)| (*g, c.clone())).collect()
    }

    /// The variables the rules' `view` shows, as they are now.
    fn view_state(&self) -> Vec<(u16, Value)> {
        self.prog.view.iter().filter_map(|&v| Some((v, self.globals.get(v as usize)?.clone()))).collect()
    }

    /// What was legal instead of `event`: in words, as candidates (up to
    /// `Limits::legal_events`), and how many, the actor's own first: what they could have done
    /// instead (`optional`: the point where it is judged may be left without an event). And
    /// whether the event met such a point, where a live game lists the later points too
    /// (`Machine::list_as_live`).
    fn legal_here(
        &mut self,
        event: &Event,
        optional: bool,
        c: Option<&'p Choose>,
        frame: &mut Vec<Value>,
    ) -> Run<(LegalHere, bool)> {
        let optional_met = optional || self.left_optional_for == Some(event.index);
        let found = self.legal(c, frame)?;
        Ok((self.legal_listed(found, &event.actor), optional_met))
    }

    /// Legal events as a violation lists them: in words, as candidates (up to
    /// `Limits::legal_events`) and how many, `actor`'s own first.
    fn legal_listed(&self, mut found: Vec<Candidate>, actor: &Value) -> LegalHere {
        found.sort_by_key(|k| k.actor != *actor);
        let words = self.legal_descriptions(&found);
        let count = found.len();
        found.truncate(self.limits.legal_events);
        (words, found, count)
    }

    /// After a check's run: a violation whose event met a point that may be left without an
    /// event lists what a live game listed before it (`Game::legal`), that point's events and
    /// those of the points after it, each with the state it is reached in. That takes the
    /// events before it run again, once, by a machine of its own once this one has unwound
    /// (not nested in it, which would need twice the stack). Not where moves stand (each of
    /// many violations would run the game again) nor where the run does not get there.
    pub(super) fn list_as_live(&mut self) {
        let Source::Transcript { events, .. } = &self.source else { return };
        let Some(v) = self.violation.as_ref().filter(|v| v.listed_where_judged && !self.go_on) else { return };
        let Some(actor) = events.get(v.event).map(|e| e.actor.clone()) else { return };
        let prefix = events[..v.event].to_vec();
        let source = Source::Probe { events: prefix, pos: 0, legal: None, judged: vec![] };
        let mut probe = Machine::new(self.prog, self.players.clone(), self.params.clone(), source);
        probe.set_limits(&self.limits);
        // The events before the first broken rule break none, so the probe gets there.
        let found = match (probe.run(), probe.source) {
            (Ok(_), Source::Probe { legal: Some(found), .. }) => found,
            _ => return,
        };
        let (legal, legal_events, legal_count) = self.legal_listed(found, &actor);
        if let Some(v) = &mut self.violation {
            (v.legal, v.legal_events, v.legal_count, v.listed_where_judged) = (legal, legal_events, legal_count, false);
        }
    }

    fn not_open_message(&self, event: &Event) -> String {
        let action = &self.prog.actions[event.action as usize].name;
        if self.finished {
            format!("the game is over; {} cannot take `{action}` any more", self.who(&event.actor))
        } else {
            format!("no one may take `{action}` at this point of the game")
        }
    }

    pub(super) fn who(&self, actor: &Value) -> String {
        super::show(self.prog, &self.players, actor)
    }

    fn list_words(&self, values: &[Value]) -> String {
        let words: Vec<String> = values.iter().map(|v| self.who(v)).collect();
        words.join(" or ")
    }

    /// Runs a branch's checks with its argument bound; the first failing `require`.
    pub(super) fn run_checks(
        &mut self,
        b: &'p Branch,
        actor: &Value,
        arg: &Value,
        frame: &mut Vec<Value>,
    ) -> Run<Failed> {
        self.checks_of(b, (actor, arg), frame, true, 0)
    }

    /// The first failing check from check `from` on; its message is only written when
    /// `explain` is set (listing legal actions needs just pass or fail).
    pub(super) fn checks_of(
        &mut self,
        b: &'p Branch,
        (actor, arg): (&Value, &Value),
        frame: &mut Vec<Value>,
        explain: bool,
        from: usize,
    ) -> Run<Failed> {
        bind(frame, b.arg, arg.clone());
        if let Some(slot) = b.actor {
            bind(frame, slot, actor.clone());
        }
        self.explain = explain;
        self.checks(b.checks.get(from..).unwrap_or_default(), frame)
    }

    fn checks(&mut self, block: &'p [S], frame: &mut Vec<Value>) -> Run<Failed> {
        for s in block {
            self.burn(&s.span)?;
            let failed = match &s.s {
                St::Require { cond, rule, message, cost } => {
                    if self.truth(cond, frame)? {
                        None
                    } else {
                        let text = if self.explain { self.template(message, frame)? } else { String::new() };
                        // Only when judging an event (`explain`), never when listing what is legal.
                        let stands = self.go_on && self.explain && self.prog.rules[*rule as usize].stands;
                        if stands {
                            let cost = (!cost.is_empty()).then(|| (cost, frame.clone()));
                            self.broken_now.push(super::Broken {
                                rule: *rule,
                                message: text,
                                at: s.span.clone(),
                                cost,
                            });
                            None
                        } else {
                            Some((*rule, text, s.span.clone()))
                        }
                    }
                }
                St::Let(slot, x) => {
                    let v = self.eval(x, frame)?;
                    self.shallow_enough(&v, &x.span)?;
                    bind(frame, *slot, v);
                    None
                }
                St::If(c, a, b) => {
                    let branch = if self.truth(c, frame)? { a } else { b };
                    self.checks(branch, frame)?
                }
                St::For { slot, slot2, coll, body } => self.checks_for(*slot, *slot2, coll, body, frame)?,
                St::Call(p, args) => self.check_helper(*p, args, frame, s)?,
                _ => None,
            };
            if failed.is_some() {
                return Ok(failed);
            }
        }
        Ok(None)
    }

    fn checks_for(
        &mut self,
        slot: u16,
        slot2: Option<u16>,
        coll: &X,
        body: &'p Block,
        frame: &mut Vec<Value>,
    ) -> Run<Failed> {
        let mut entries = self.entries(coll, slot2.is_some(), frame)?;
        while entries.more() {
            self.burn(&coll.span)?;
            entries.bind_next(frame, slot, slot2);
            if let Some(f) = self.checks(body, frame)? {
                return Ok(Some(f));
            }
        }
        Ok(None)
    }
}

/// What a waiting point does after an event.
pub(super) enum Dispatch {
    /// The event matched no branch and the point has `otherwise`: run it, keep the event.
    Otherwise,
    /// A record or `again`: wait here for the next event.
    Stay,
    Taken(Ctl),
}

/// Changes the value at `keys` inside `root`, adding to `work` the items it had to look
/// through or copy on the way; a list it builds has at most `items` items.
fn update(
    root: &mut Value,
    keys: &[Value],
    op: AssignOp,
    new: Value,
    items: usize,
    work: &mut usize,
) -> Result<(), String> {
    let Some((key, rest)) = keys.split_first() else {
        return combine(root, op, new, items, work);
    };
    match root {
        Value::List(list) => {
            *work += list.len();
            let Value::Int(i) = key else {
                return Err(format!("a list index must be an int, not {}", key.type_name()));
            };
            let len = list.len();
            let item = usize::try_from(*i)
                .ok()
                .and_then(|i| std::rc::Rc::make_mut(list).get_mut(i))
                .ok_or(format!("index {i} is outside a list of {len}"))?;
            update(item, rest, op, new, items, work)
        }
        Value::Map(map) => {
            *work += map.len();
            let map = std::rc::Rc::make_mut(map);
            if let Some((_, v)) = map.iter_mut().find(|(k, _)| k.same(key)) {
                return update(v, rest, op, new, items, work);
            }
            let mut v = Value::Null;
            update(&mut v, rest, op, new, items, work)?;
            map.push((key.clone(), v));
            Ok(())
        }
        other => Err(format!("cannot index into {}", other.type_name())),
    }
}

fn combine(slot: &mut Value, op: AssignOp, new: Value, items: usize, work: &mut usize) -> Result<(), String> {
    // `+=` copies both lists; `-=` looks through the list once per item it removes.
    match (op, &*slot, &new) {
        (AssignOp::Add, Value::List(a), Value::List(b)) => {
            if a.len() + b.len() > items {
                return Err(format!("the rules build a list of more than {items} items"));
            }
            *work += a.len() + b.len();
        }
        (AssignOp::Sub, Value::List(a), Value::List(b)) => *work += a.len() * b.len().max(1),
        _ => {}
    }
    *slot = match (op, &*slot, new) {
        (AssignOp::Set, _, v) => v,
        (AssignOp::Add, Value::Int(a), Value::Int(b)) => Value::Int(a.checked_add(b).ok_or("overflow")?),
        (AssignOp::Sub, Value::Int(a), Value::Int(b)) => Value::Int(a.checked_sub(b).ok_or("overflow")?),
        // A list held by this variable alone is changed where it is, not copied.
        (AssignOp::Add, Value::List(_), Value::List(b)) => {
            if let Value::List(a) = slot {
                std::rc::Rc::make_mut(a).extend(b.iter().cloned());
            }
            return Ok(());
        }
        (AssignOp::Sub, Value::List(_), Value::List(b)) => {
            if let Value::List(a) = slot {
                super::eval::remove_each(std::rc::Rc::make_mut(a), &b);
            }
            return Ok(());
        }
        (_, a, b) => return Err(format!("cannot combine {} with {}", a.type_name(), b.type_name())),
    };
    Ok(())
}
