//! A Hangover referee written by hand, the way a fast one for this game alone would be: the
//! transcript read by serde_json straight into typed structs, cards as small integers, hands as
//! bit masks, per-seat arrays, and the rules as plain Rust. It is the yardstick of
//! docs/performance.md ("Against a hand-written referee"): what checking and playing Hangover
//! costs without an engine, to measure shinpan against.
//!
//! It follows `specs/hangover.rules` (the contract the engine runs) and
//! `docs/rules/hangover.md`; `tests/handwritten.rs` holds it to the engine's verdicts.
//! It reads JSON only (one transcript a line, as `shinpan play --games N` writes them) and
//! reports the first violation, as `shinpan check` does without `--all`.

use std::borrow::Cow;
use std::fmt::{self, Write as _};

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};

pub const MAX_PLAYERS: usize = 5;
/// The actor `table`, beside the seats 0 to 4.
pub const TABLE: u8 = MAX_PLAYERS as u8;
const SNACK_KINDS: usize = 10;
const COLUMNS: usize = 4;
const SNACKS_EACH: usize = 4;
/// Codes per suit: ranks 1 to 7, each plain and with the triangle.
const CARDS_PER_SUIT: u8 = 14;

// ---------------------------------------------------------------- cards

/// A drink card as `suit * 14 + (rank - 1) * 2 + triangle` (0 to 55): within a suit the number
/// order is the strength order (2.1), and a set of cards is a `u64` mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card(u8);

const SUIT_LETTERS: [u8; 4] = *b"RBYG";

impl Card {
    /// The card of a code matching `^[RBYG][1-7]\^?$`, in the deck in use or not.
    pub fn parse(code: &str) -> Option<Card> {
        let (suit, rank, triangle) = match code.as_bytes() {
            [s, r] => (*s, *r, false),
            [s, r, b'^'] => (*s, *r, true),
            _ => return None,
        };
        let suit = SUIT_LETTERS.iter().position(|&l| l == suit)? as u8;
        if !(b'1'..=b'7').contains(&rank) {
            return None;
        }
        Some(Card(suit * CARDS_PER_SUIT + (rank - b'1') * 2 + u8::from(triangle)))
    }

    fn suit(self) -> u8 {
        self.0 / CARDS_PER_SUIT
    }

    /// The card's value in a drunk check: its rank; the triangle does not count.
    fn rank(self) -> i64 {
        i64::from(self.0 % CARDS_PER_SUIT / 2 + 1)
    }

    fn bit(self) -> u64 {
        1 << self.0
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suit = char::from(SUIT_LETTERS[usize::from(self.suit())]);
        let triangle = if self.0 % 2 == 1 { "^" } else { "" };
        write!(f, "{suit}{}{triangle}", self.rank())
    }
}

fn suit_mask(suit: u8) -> u64 {
    ((1u64 << CARDS_PER_SUIT) - 1) << (suit * CARDS_PER_SUIT)
}

/// The deck in use: ranks 1 to `max_rank` of every suit, both copies (2.2).
fn deck_mask(max_rank: u8) -> u64 {
    (0..4).map(|suit| ((1u64 << (2 * max_rank)) - 1) << (suit * CARDS_PER_SUIT)).fold(0, |a, b| a | b)
}

/// A snack card, by its place in this table of codes and printed values (2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snack(u8);

const SNACKS: [(&str, i64, i64); SNACK_KINDS] = [
    ("+1/+2", 1, 2),
    ("-1/-2", -1, -2),
    ("+2/+3", 2, 3),
    ("-2/-3", -2, -3),
    ("+1/+3", 1, 3),
    ("-1/-3", -1, -3),
    ("-1/+1", -1, 1),
    ("-2/+2", -2, 2),
    ("-3/+3", -3, 3),
    ("-4/+4", -4, 4),
];

impl Snack {
    pub fn parse(code: &str) -> Option<Snack> {
        SNACKS.iter().position(|s| s.0 == code).map(|i| Snack(i as u8))
    }

    pub fn code(self) -> &'static str {
        SNACKS[usize::from(self.0)].0
    }

    pub fn values(self) -> (i64, i64) {
        let (_, lo, hi) = SNACKS[usize::from(self.0)];
        (lo, hi)
    }
}

// ---------------------------------------------------------------- reading

/// A code read in place (serde hands over a borrowed `&str`; nothing is allocated).
struct CodeVisitor<T>(fn(&str) -> Option<T>, &'static str);

impl<T> Visitor<'_> for CodeVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.1)
    }
    fn visit_str<E: de::Error>(self, code: &str) -> Result<T, E> {
        (self.0)(code).ok_or_else(|| E::invalid_value(de::Unexpected::Str(code), &self))
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        d.deserialize_str(CodeVisitor(Card::parse, "a drink card code"))
    }
}

impl<'de> Deserialize<'de> for Snack {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Snack, D::Error> {
        d.deserialize_str(CodeVisitor(Snack::parse, "a snack code"))
    }
}

/// The argument of `declare`: only `nondrinker` is one.
struct Nondrinker;

impl<'de> Deserialize<'de> for Nondrinker {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Nondrinker, D::Error> {
        d.deserialize_str(CodeVisitor(|s| (s == "nondrinker").then_some(Nondrinker), "nondrinker"))
    }
}

/// A name (a player, `table`, the rules), borrowed from the line unless it has escapes.
struct Name<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Name<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Name<'a>, D::Error> {
        struct NameVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for NameVisitor<'a> {
            type Value = Name<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a name")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Name<'a>, E> {
                Ok(Name(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Name<'a>, E> {
                Ok(Name(Cow::Owned(s.to_string())))
            }
        }
        d.deserialize_str(NameVisitor(std::marker::PhantomData))
    }
}

/// A mapping from player names, its entries in the order written.
struct Entries<'a, V>(Vec<(Name<'a>, V)>);

impl<'de: 'a, 'a, V: Deserialize<'de>> Deserialize<'de> for Entries<'a, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Entries<'a, V>, D::Error> {
        struct EntriesVisitor<'a, V>(std::marker::PhantomData<(&'a (), V)>);
        impl<'de: 'a, 'a, V: Deserialize<'de>> Visitor<'de> for EntriesVisitor<'a, V> {
            type Value = Entries<'a, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a mapping from player names")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Entries<'a, V>, M::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(MAX_PLAYERS));
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }
        d.deserialize_map(EntriesVisitor(std::marker::PhantomData))
    }
}

#[derive(Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SnackUse {
    pub card: Snack,
    pub add: i64,
}

/// An event as written, its names not yet looked up: `by`, exactly one action key and an
/// ignored `note`. Any other key, or a second action, is unreadable (5.1). Read by hand
/// rather than derived, so that an event is an enum of its one action, not a struct of nine
/// absent ones.
struct RawEvent<'a> {
    by: Name<'a>,
    action: RawAction<'a>,
}

enum RawAction<'a> {
    Deal(Entries<'a, Vec<Card>>),
    Snacks(Entries<'a, Vec<Snack>>),
    Arrange(Vec<Snack>),
    Start(Name<'a>),
    Declare,
    Play(Card),
    Snack(Vec<SnackUse>),
    Won(Name<'a>),
    Score(Entries<'a, i64>),
}

impl<'de: 'a, 'a> Deserialize<'de> for RawEvent<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RawEvent<'a>, D::Error> {
        struct EventVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for EventVisitor<'a> {
            type Value = RawEvent<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an event: `by` and one action")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<RawEvent<'a>, M::Error> {
                let (mut by, mut action) = (None, None);
                while let Some(key) = map.next_key::<Name>()? {
                    let read = match key.0.as_ref() {
                        "by" if by.is_none() => {
                            by = Some(map.next_value()?);
                            continue;
                        }
                        "by" => return Err(de::Error::custom("an event has one `by`")),
                        "note" => {
                            map.next_value::<IgnoredAny>()?;
                            continue;
                        }
                        "deal" => RawAction::Deal(map.next_value()?),
                        "snacks" => RawAction::Snacks(map.next_value()?),
                        "arrange" => RawAction::Arrange(map.next_value()?),
                        "start" => RawAction::Start(map.next_value()?),
                        "declare" => map.next_value::<Nondrinker>().map(|_| RawAction::Declare)?,
                        "play" => RawAction::Play(map.next_value()?),
                        "snack" => RawAction::Snack(map.next_value()?),
                        "won" => RawAction::Won(map.next_value()?),
                        "score" => RawAction::Score(map.next_value()?),
                        other => return Err(de::Error::custom(format!("`{other}` is not an action of Hangover"))),
                    };
                    if action.replace(read).is_some() {
                        return Err(de::Error::custom("an event takes one action"));
                    }
                }
                match (by, action) {
                    (Some(by), Some(action)) => Ok(RawEvent { by, action }),
                    _ => Err(de::Error::custom("an event has `by` and one action")),
                }
            }
        }
        d.deserialize_map(EventVisitor(std::marker::PhantomData))
    }
}

/// `variant:`; a key that is not a parameter is unreadable (3.2).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    max_rank: Option<i64>,
    hand_size: Option<i64>,
    limit: Option<i64>,
    hangover_at: Option<i64>,
}

/// The envelope; other top-level keys (`meta`) are ignored.
#[derive(Deserialize)]
struct RawTranscript<'a> {
    #[serde(borrow)]
    rules: Name<'a>,
    #[serde(borrow)]
    players: Vec<Name<'a>>,
    #[serde(default)]
    variant: Option<RawVariant>,
    #[serde(borrow)]
    events: Vec<RawEvent<'a>>,
}

/// An event with its names resolved: `by` a seat or `TABLE`, every player key a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub by: u8,
    pub action: Action,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Deal(Vec<(u8, Vec<Card>)>),
    Snacks(Vec<(u8, Vec<Snack>)>),
    Arrange(Vec<Snack>),
    Start(u8),
    Declare,
    Play(Card),
    Snack(Vec<SnackUse>),
    Won(u8),
    Score(Vec<(u8, i64)>),
}

/// The parameters of section 3, after the variant.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    pub players: usize,
    pub max_rank: u8,
    pub hand_size: usize,
    pub limit: i64,
    pub hangover_at: u32,
}

impl Params {
    /// The defaults for this many players (3 to 5), each override checked against its range.
    pub fn new(
        players: usize,
        max_rank: Option<i64>,
        hand_size: Option<i64>,
        limit: Option<i64>,
        hangover_at: Option<i64>,
    ) -> Option<Params> {
        let index = players.checked_sub(3).filter(|&i| i < 3)?;
        let max_rank = max_rank.unwrap_or([5, 6, 7][index]);
        if !(1..=7).contains(&max_rank) {
            return None;
        }
        // 3.1: the hand size is checked against the deck in use after the overrides.
        let hand_size = hand_size.unwrap_or(11);
        if !(1..=8 * max_rank / players as i64).contains(&hand_size) {
            return None;
        }
        let hangover_at = hangover_at.unwrap_or(5);
        if hangover_at < 1 {
            return None;
        }
        Some(Params {
            players,
            max_rank: max_rank as u8,
            hand_size: hand_size as usize,
            limit: limit.unwrap_or([7, 12, 16][index]),
            // A trick count never passes the hand size, so a larger value acts as u32::MAX does.
            hangover_at: u32::try_from(hangover_at).unwrap_or(u32::MAX),
        })
    }
}

/// A transcript that reads as a Hangover game.
pub struct Game {
    pub names: Vec<String>,
    pub params: Params,
    pub events: Vec<Event>,
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && name != "table"
}

/// Reads one transcript; `None` when it is malformed (5.1): the whole transcript is read
/// before any rule is checked.
pub fn read(line: &str) -> Option<Game> {
    let raw: RawTranscript = serde_json::from_str(line).ok()?;
    if raw.rules.0 != "hangover" {
        return None;
    }
    let names: Vec<String> = raw.players.iter().map(|n| n.0.to_string()).collect();
    let unique = names.iter().enumerate().all(|(i, n)| !names[..i].contains(n));
    if !unique || !names.iter().all(|n| valid_name(n)) {
        return None;
    }
    let variant = raw.variant.unwrap_or_default();
    let params = Params::new(names.len(), variant.max_rank, variant.hand_size, variant.limit, variant.hangover_at)?;
    let seat = |name: &Name| names.iter().position(|n| *n == name.0).map(|i| i as u8);
    let mut events = Vec::with_capacity(raw.events.len());
    for e in raw.events {
        let by = if e.by.0 == "table" { TABLE } else { seat(&e.by)? };
        let action = match e.action {
            RawAction::Deal(d) => Action::Deal(seats_of(d, &names)?),
            RawAction::Snacks(d) => Action::Snacks(seats_of(d, &names)?),
            RawAction::Arrange(order) => Action::Arrange(order),
            RawAction::Start(s) => Action::Start(seat(&s)?),
            RawAction::Declare => Action::Declare,
            RawAction::Play(c) => Action::Play(c),
            RawAction::Snack(uses) => Action::Snack(uses),
            RawAction::Won(w) => Action::Won(seat(&w)?),
            RawAction::Score(s) => Action::Score(seats_of(s, &names)?),
        };
        events.push(Event { by, action });
    }
    Some(Game { names, params, events })
}

/// A mapping's keys as seats; a name that is not a player, or one written twice, is malformed.
fn seats_of<V>(entries: Entries<V>, names: &[String]) -> Option<Vec<(u8, V)>> {
    let mut seen = 0u8;
    let mut out = Vec::with_capacity(entries.0.len());
    for (name, value) in entries.0 {
        let seat = names.iter().position(|n| *n == name.0)? as u8;
        if seen & (1 << seat) != 0 {
            return None;
        }
        seen |= 1 << seat;
        out.push((seat, value));
    }
    Some(out)
}

// ---------------------------------------------------------------- judging

/// The rule ids, in the order they are checked (the shared ones, then section 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    AfterGameEnd,
    UnexpectedAction,
    TurnOrder,
    NotHeld,
    BadDeal,
    Arrange,
    MustFollow,
    Snack,
    TrickWinner,
    Score,
}

impl Rule {
    pub fn id(self) -> &'static str {
        match self {
            Rule::AfterGameEnd => "after-game-end",
            Rule::UnexpectedAction => "unexpected-action",
            Rule::TurnOrder => "turn-order",
            Rule::NotHeld => "not-held",
            Rule::BadDeal => "bad-deal",
            Rule::Arrange => "arrange",
            Rule::MustFollow => "must-follow",
            Rule::Snack => "snack",
            Rule::TrickWinner => "trick-winner",
            Rule::Score => "score",
        }
    }
}

/// Where the flow waits (section 5.2.1); the snack moment is `Table::pending` on top of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Deal,
    Snacks,
    Arrange,
    Start,
    Tricks,
    Over,
}

/// A drunk check waiting for its snack moment (5.5.4): the winner, their trick count k, the sum.
#[derive(Clone, Copy, Debug)]
struct DrunkCheck {
    winner: usize,
    count: u32,
    total: i64,
}

/// One card of the trick under way, and whether its player was active (it counts).
#[derive(Clone, Copy, Debug)]
struct Played {
    seat: usize,
    card: Card,
    counts: bool,
}

/// Snack cards counted by kind (a column, the snacks a player received).
type SnackCounts = [u8; SNACK_KINDS];

/// The state of a game, seat by seat; seat masks have bit `s` for seat `s`.
pub struct Table {
    params: Params,
    all_seats: u8,
    phase: Phase,
    hands: [u64; MAX_PLAYERS],
    received: [[Snack; SNACKS_EACH]; MAX_PLAYERS],
    columns: [[SnackCounts; COLUMNS]; MAX_PLAYERS],
    arranged: u8,
    declared: u8,
    active: u8,
    hungover: u8,
    tricks: [u32; MAX_PLAYERS],
    vp: [i64; MAX_PLAYERS],
    trick: [Played; MAX_PLAYERS],
    trick_len: usize,
    leader: usize,
    any_played: bool,
    won_open: bool,
    last_winner: usize,
    pending: Option<DrunkCheck>,
    finished: bool,
}

fn counts_of(snacks: &[Snack]) -> SnackCounts {
    let mut counts = [0u8; SNACK_KINDS];
    for s in snacks {
        counts[usize::from(s.0)] = counts[usize::from(s.0)].saturating_add(1);
    }
    counts
}

/// Whether `wanted` asks for more of some kind than `held` has (a multiset difference that is
/// not empty).
fn more_than(wanted: &SnackCounts, held: &SnackCounts) -> bool {
    wanted.iter().zip(held).any(|(w, h)| w > h)
}

impl Table {
    pub fn new(params: Params) -> Table {
        let all_seats = ((1u16 << params.players) - 1) as u8;
        Table {
            params,
            all_seats,
            phase: Phase::Deal,
            hands: [0; MAX_PLAYERS],
            received: [[Snack(0); SNACKS_EACH]; MAX_PLAYERS],
            columns: [[[0; SNACK_KINDS]; COLUMNS]; MAX_PLAYERS],
            arranged: 0,
            declared: 0,
            active: all_seats,
            hungover: 0,
            tricks: [0; MAX_PLAYERS],
            vp: [0; MAX_PLAYERS],
            trick: [Played { seat: 0, card: Card(0), counts: false }; MAX_PLAYERS],
            trick_len: 0,
            leader: 0,
            any_played: false,
            won_open: false,
            last_winner: 0,
            pending: None,
            finished: false,
        }
    }

    fn is_active(&self, seat: usize) -> bool {
        self.active & (1 << seat) != 0
    }

    fn is_drinker(&self, seat: usize) -> bool {
        self.declared & (1 << seat) == 0
    }

    /// The seat whose card the trick waits for.
    fn to_play(&self) -> usize {
        (self.leader + self.trick_len) % self.params.players
    }

    /// Who may take this action now (a mask of seats, bit `TABLE` for the table); 0 when it
    /// is not open. The snack moment is handled before this is asked.
    fn actors(&self, action: &Action) -> u8 {
        let table = 1 << TABLE;
        match action {
            Action::Deal(_) if self.phase == Phase::Deal => table,
            Action::Snacks(_) if self.phase == Phase::Snacks => table,
            Action::Arrange(_) if self.phase == Phase::Arrange => self.all_seats & !self.arranged,
            Action::Start(_) if self.phase == Phase::Start => table,
            Action::Declare if self.phase == Phase::Tricks && !self.any_played => self.all_seats & !self.declared,
            Action::Play(_) if self.phase == Phase::Tricks => 1 << self.to_play(),
            // The records (section 6): open at every point where their guard holds.
            Action::Won(_) if self.won_open => table,
            Action::Score(_) if self.trick_len == 0 => table,
            _ => 0,
        }
    }

    /// Judges one event (5.2.2) and, if it breaks no rule, plays it.
    pub fn judge(&mut self, event: &Event) -> Result<(), Rule> {
        // Step 0: a drunk check waiting for its snack moment takes a snack event, or is
        // settled without snacks before any other event is judged.
        if let Some(check) = self.pending {
            if let Action::Snack(uses) = &event.action {
                if usize::from(event.by) != check.winner {
                    return Err(Rule::TurnOrder);
                }
                return self.use_snacks(check, uses);
            }
            self.settle_without_snacks(check);
        }
        let actors = self.actors(&event.action);
        if actors == 0 {
            return Err(if self.finished { Rule::AfterGameEnd } else { Rule::UnexpectedAction });
        }
        if actors & (1 << event.by) == 0 {
            return Err(Rule::TurnOrder);
        }
        let by = usize::from(event.by);
        match &event.action {
            Action::Deal(dealt) => self.deal(dealt),
            Action::Snacks(dealt) => self.deal_snacks(dealt),
            Action::Arrange(order) => self.arrange(by, order),
            Action::Start(seat) => {
                self.leader = usize::from(*seat);
                self.phase = Phase::Tricks;
                Ok(())
            }
            Action::Declare => {
                self.declared |= 1 << by;
                Ok(())
            }
            Action::Play(card) => self.play(by, *card),
            Action::Won(winner) => {
                if usize::from(*winner) != self.last_winner {
                    return Err(Rule::TrickWinner);
                }
                self.won_open = false;
                Ok(())
            }
            Action::Score(claimed) => match claimed.iter().any(|&(seat, vp)| self.vp[usize::from(seat)] != vp) {
                true => Err(Rule::Score),
                false => Ok(()),
            },
            // Open only at the snack moment, handled above.
            Action::Snack(_) => Err(Rule::UnexpectedAction),
        }
    }

    /// 4.1: every player dealt `hand_size` cards of the deck in use, no card twice.
    fn deal(&mut self, dealt: &[(u8, Vec<Card>)]) -> Result<(), Rule> {
        let deck = deck_mask(self.params.max_rank);
        let mut seen = 0u64;
        let mut hands = [0u64; MAX_PLAYERS];
        let mut listed = 0u8;
        for (seat, cards) in dealt {
            listed |= 1 << seat;
            if cards.len() != self.params.hand_size {
                return Err(Rule::BadDeal);
            }
            for card in cards {
                if deck & card.bit() == 0 || seen & card.bit() != 0 {
                    return Err(Rule::BadDeal);
                }
                seen |= card.bit();
            }
            hands[usize::from(*seat)] = cards.iter().fold(0, |m, c| m | c.bit());
        }
        if listed != self.all_seats {
            return Err(Rule::BadDeal);
        }
        self.hands = hands;
        self.phase = Phase::Snacks;
        Ok(())
    }

    /// 4.2: every player dealt 4 snacks, no kind more than twice in all.
    fn deal_snacks(&mut self, dealt: &[(u8, Vec<Snack>)]) -> Result<(), Rule> {
        let mut listed = 0u8;
        let mut all = [0u8; SNACK_KINDS];
        for (seat, snacks) in dealt {
            listed |= 1 << seat;
            let Ok(four) = <[Snack; SNACKS_EACH]>::try_from(snacks.as_slice()) else { return Err(Rule::BadDeal) };
            for s in four {
                all[usize::from(s.0)] += 1;
            }
            self.received[usize::from(*seat)] = four;
        }
        if listed != self.all_seats || all.iter().any(|&n| n > 2) {
            return Err(Rule::BadDeal);
        }
        self.phase = Phase::Arrange;
        Ok(())
    }

    /// 4.3: the snacks received, one a column.
    fn arrange(&mut self, seat: usize, order: &[Snack]) -> Result<(), Rule> {
        if more_than(&counts_of(order), &counts_of(&self.received[seat])) {
            return Err(Rule::NotHeld);
        }
        if order.len() != SNACKS_EACH {
            return Err(Rule::Arrange);
        }
        for (column, snack) in self.columns[seat].iter_mut().zip(order) {
            *column = counts_of(&[*snack]);
        }
        self.arranged |= 1 << seat;
        if self.arranged == self.all_seats {
            self.phase = Phase::Start;
        }
        Ok(())
    }

    /// 5.4: a card from the hand, following the led suit if an active non-leader can.
    fn play(&mut self, seat: usize, card: Card) -> Result<(), Rule> {
        let hand = self.hands[seat];
        if hand & card.bit() == 0 {
            return Err(Rule::NotHeld);
        }
        if self.trick_len > 0 && self.is_active(seat) {
            let led = self.trick[0].card.suit();
            if card.suit() != led && hand & suit_mask(led) != 0 {
                return Err(Rule::MustFollow);
            }
        }
        self.hands[seat] = hand & !card.bit();
        self.trick[self.trick_len] = Played { seat, card, counts: self.is_active(seat) };
        self.trick_len += 1;
        self.any_played = true;
        self.won_open = false;
        if self.trick_len == self.params.players {
            self.resolve_trick();
        }
        Ok(())
    }

    /// 5.5: the winner, the non-drinkers' points, the winner's fate, the next leader, the end.
    fn resolve_trick(&mut self) {
        let led = self.trick[0].card.suit();
        let (mut winner, mut best, mut total) = (0, None, 0);
        for p in &self.trick[..self.trick_len] {
            if p.counts && p.card.suit() == led {
                total += p.card.rank();
                if best.is_none_or(|b| p.card.0 > b) {
                    (winner, best) = (p.seat, Some(p.card.0));
                }
            }
        }
        self.trick_len = 0;
        self.won_open = true;
        self.last_winner = winner;
        for q in 0..self.params.players {
            if self.is_active(q) && !self.is_drinker(q) && q != winner {
                self.vp[q] += 1;
            }
        }
        let drinker = self.is_drinker(winner);
        let checks = drinker && self.tricks[winner] + 1 < self.params.hangover_at;
        if drinker {
            self.tricks[winner] += 1;
        }
        if !drinker || self.tricks[winner] >= self.params.hangover_at {
            self.active &= !(1 << winner);
        }
        if drinker && self.tricks[winner] >= self.params.hangover_at {
            self.hungover |= 1 << winner;
        }
        // 5.6: the winner if still active, else the next active player clockwise.
        let n = self.params.players;
        let next = (0..n).map(|i| (winner + i) % n).find(|&q| self.is_active(q));
        self.leader = next.unwrap_or(0);
        if next.is_none() || self.hands[..n].iter().all(|&h| h == 0) {
            self.finished = true;
            self.phase = Phase::Over;
        }
        // The drunk check waits for its snack moment, after the final trick too (5.8.2).
        if checks {
            self.pending = Some(DrunkCheck { winner, count: self.tricks[winner], total });
        }
    }

    /// 5.7.2: flipping snacks of the winner's column k.
    fn use_snacks(&mut self, check: DrunkCheck, uses: &[SnackUse]) -> Result<(), Rule> {
        let (w, k) = (check.winner, check.count as usize);
        // A column beyond 4 is empty.
        let column = if k <= COLUMNS { self.columns[w][k - 1] } else { [0; SNACK_KINDS] };
        let flipped = counts_of(&uses.iter().map(|u| u.card).collect::<Vec<_>>());
        if more_than(&flipped, &column) {
            return Err(Rule::NotHeld);
        }
        if uses.is_empty() {
            return Err(Rule::Snack);
        }
        let mut total = check.total;
        for u in uses {
            let (lo, hi) = u.card.values();
            if u.add != lo && u.add != hi {
                return Err(Rule::Snack);
            }
            total += u.add;
        }
        self.pending = None;
        self.settle(w, total, uses.len());
        // Flipped cards leave play; the rest of column k stays there for good.
        for (left, gone) in self.columns[w][k - 1].iter_mut().zip(flipped) {
            *left -= gone;
        }
        Ok(())
    }

    /// 5.7.3 without snacks: the points, then column k slides to column k + 1.
    fn settle_without_snacks(&mut self, check: DrunkCheck) {
        self.pending = None;
        let (w, k) = (check.winner, check.count as usize);
        self.settle(w, check.total, 0);
        if k < COLUMNS {
            let sliding = self.columns[w][k - 1];
            for (to, from) in self.columns[w][k].iter_mut().zip(sliding) {
                *to += from;
            }
        }
        if k <= COLUMNS {
            self.columns[w][k - 1] = [0; SNACK_KINDS];
        }
    }

    /// 5.7.3: 1 VP under the limit, 3 at it, 0 over; times one more than the snacks flipped.
    fn settle(&mut self, winner: usize, total: i64, flipped: usize) {
        let base = match total.cmp(&self.params.limit) {
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => 3,
            std::cmp::Ordering::Greater => 0,
        };
        self.vp[winner] += base * (1 + flipped as i64);
    }

    /// The result as of now: a check still waiting for its snack moment counts as settled
    /// without snacks (7.2).
    pub fn outcome(mut self, broken: Option<(Rule, usize)>) -> Outcome {
        if let Some(check) = self.pending {
            self.settle_without_snacks(check);
        }
        let n = self.params.players;
        let scores = self.vp[..n].to_vec();
        // 7.3: the highest VP among those without a Hangover!, once the game is over.
        let best = (0..n).filter(|&p| self.hungover & (1 << p) == 0).map(|p| self.vp[p]).max();
        let winners = match self.finished {
            true => (0..n).filter(|&p| self.hungover & (1 << p) == 0 && Some(self.vp[p]) == best).collect(),
            false => vec![],
        };
        Outcome { broken, finished: self.finished, scores, winners }
    }
}

/// The verdict on a transcript that reads (a malformed one has none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The first violation: its rule and event number.
    pub broken: Option<(Rule, usize)>,
    pub finished: bool,
    pub scores: Vec<i64>,
    pub winners: Vec<usize>,
}

/// Checks a game event by event, stopping at the first violation.
pub fn check(game: &Game) -> Outcome {
    let mut table = Table::new(game.params);
    for (index, event) in game.events.iter().enumerate() {
        if let Err(rule) = table.judge(event) {
            return table.outcome(Some((rule, index)));
        }
    }
    table.outcome(None)
}

/// Checks one line of JSON Lines: `None` when it is malformed.
pub fn check_line(line: &str) -> Option<(Game, Outcome)> {
    let game = read(line)?;
    let outcome = check(&game);
    Some((game, outcome))
}

/// The verdict as one line of JSON, in the words of `shinpan check --format json` (the fields
/// the contract fixes; no messages or lines).
pub fn verdict_line(names: &[String], verdict: Option<&Outcome>, out: &mut String) {
    let Some(o) = verdict else {
        out.push_str("{\"verdict\":\"malformed\"}\n");
        return;
    };
    let word = if o.broken.is_some() { "illegal" } else { "legal" };
    let _ = write!(out, "{{\"verdict\":\"{word}\",\"violations\":[");
    if let Some((rule, event)) = o.broken {
        let _ = write!(out, "{{\"rule\":\"{}\",\"event\":{event}}}", rule.id());
    }
    let _ = write!(out, "],\"finished\":{},\"scores\":{{", o.finished);
    for (i, (name, vp)) in names.iter().zip(&o.scores).enumerate() {
        let comma = if i > 0 { "," } else { "" };
        // Names match `[A-Za-z][A-Za-z0-9_-]*`: nothing to escape.
        let _ = write!(out, "{comma}\"{name}\":{vp}");
    }
    out.push_str("},\"winners\":[");
    for (i, &w) in o.winners.iter().enumerate() {
        let comma = if i > 0 { "," } else { "" };
        let _ = write!(out, "{comma}\"{}\"", names[w]);
    }
    out.push_str("]}\n");
}

// ---------------------------------------------------------------- random playouts

/// SplitMix64: small, fast, and good enough to draw moves.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (n > 0), by multiplying instead of dividing.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// The `k`-th set bit of a mask (k below its count).
fn nth_bit(mut mask: u64, k: usize) -> u8 {
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as u8
}

/// Order `k` (below 24) of four snacks.
fn nth_order(items: [Snack; SNACKS_EACH], mut k: usize) -> Vec<Snack> {
    let mut left = items.to_vec();
    let mut out = Vec::with_capacity(SNACKS_EACH);
    while !left.is_empty() {
        let block: usize = (1..left.len()).product();
        out.push(left.remove(k / block % left.len()));
        k %= block;
    }
    out
}

impl Table {
    /// The legal cards of the seat to play.
    fn legal_cards(&self) -> u64 {
        let seat = self.to_play();
        let hand = self.hands[seat];
        if self.trick_len > 0 && self.is_active(seat) {
            let follow = hand & suit_mask(self.trick[0].card.suit());
            if follow != 0 {
                return follow;
            }
        }
        hand
    }

    /// A random legal event, uniform among the legal ones as `shinpan play` draws (records
    /// included, and leaving the snack moment without snacks as one more choice); `None` once
    /// the game is over.
    fn random_event(&mut self, rng: &mut Rng) -> Option<Event> {
        if let Some(check) = self.pending {
            let k = check.count as usize;
            let column = if k <= COLUMNS && !self.finished { self.columns[check.winner][k - 1] } else { [0; 10] };
            let cards: usize = column.iter().map(|&n| usize::from(n)).sum();
            let pick = rng.below(2 * cards + 1);
            if pick < 2 * cards {
                // Card number `pick / 2` of the column, adding its low or its high value.
                let (mut i, mut kind) = (pick / 2, 0);
                while i >= usize::from(column[kind]) {
                    i -= usize::from(column[kind]);
                    kind += 1;
                }
                let card = Snack(kind as u8);
                let (lo, hi) = card.values();
                let add = if pick.is_multiple_of(2) { lo } else { hi };
                return Some(Event { by: check.winner as u8, action: Action::Snack(vec![SnackUse { card, add }]) });
            }
            self.settle_without_snacks(check);
        }
        if self.finished {
            return None;
        }
        let n = self.params.players;
        let score = usize::from(self.trick_len == 0);
        let won = usize::from(self.won_open);
        let declaring = match self.phase {
            Phase::Tricks if !self.any_played => (self.all_seats & !self.declared).count_ones() as usize,
            _ => 0,
        };
        let own = match self.phase {
            Phase::Deal | Phase::Snacks => 1,
            Phase::Arrange => 24 * (self.all_seats & !self.arranged).count_ones() as usize,
            Phase::Start => n,
            Phase::Tricks => declaring + self.legal_cards().count_ones() as usize,
            Phase::Over => 0,
        };
        let mut pick = rng.below(own + score + won);
        if pick >= own {
            pick -= own;
            return Some(match pick < score {
                true => Event {
                    by: TABLE,
                    action: Action::Score((0..n as u8).map(|p| (p, self.vp[usize::from(p)])).collect()),
                },
                false => Event { by: TABLE, action: Action::Won(self.last_winner as u8) },
            });
        }
        Some(match self.phase {
            Phase::Deal => {
                let deck = deck_mask(self.params.max_rank);
                let mut cards: Vec<Card> = (0..64u8).filter(|i| deck & (1u64 << i) != 0).map(Card).collect();
                rng.shuffle(&mut cards);
                let hands = cards.chunks(self.params.hand_size).take(n);
                Event {
                    by: TABLE,
                    action: Action::Deal(hands.enumerate().map(|(p, h)| (p as u8, h.to_vec())).collect()),
                }
            }
            Phase::Snacks => {
                let mut pile: Vec<Snack> = (0..2 * SNACK_KINDS as u8).map(|i| Snack(i / 2)).collect();
                rng.shuffle(&mut pile);
                let each = pile.chunks(SNACKS_EACH).take(n);
                Event {
                    by: TABLE,
                    action: Action::Snacks(each.enumerate().map(|(p, s)| (p as u8, s.to_vec())).collect()),
                }
            }
            Phase::Arrange => {
                let seat = nth_bit(u64::from(self.all_seats & !self.arranged), pick / 24);
                Event { by: seat, action: Action::Arrange(nth_order(self.received[usize::from(seat)], pick % 24)) }
            }
            Phase::Start => Event { by: TABLE, action: Action::Start(pick as u8) },
            Phase::Tricks if pick < declaring => {
                Event { by: nth_bit(u64::from(self.all_seats & !self.declared), pick), action: Action::Declare }
            }
            Phase::Tricks | Phase::Over => {
                let card = Card(nth_bit(self.legal_cards(), pick - declaring));
                Event { by: self.to_play() as u8, action: Action::Play(card) }
            }
        })
    }
}

/// Plays one random game, handing every event to `each` as it is played; the events are
/// judged as they are played, so a move the referee would not allow is an error.
pub fn playout(params: Params, rng: &mut Rng, mut each: impl FnMut(&Event)) -> Result<Outcome, (Rule, Event)> {
    let mut table = Table::new(params);
    while let Some(event) = table.random_event(rng) {
        if let Err(rule) = table.judge(&event) {
            return Err((rule, event));
        }
        each(&event);
    }
    Ok(table.outcome(None))
}

// ---------------------------------------------------------------- writing

/// One event as JSON, the way `shinpan play` writes it.
pub fn event_json(names: &[String], e: &Event, out: &mut String) {
    let by = if e.by == TABLE { "table" } else { &names[usize::from(e.by)] };
    let _ = write!(out, "{{\"by\":\"{by}\",");
    let list = |out: &mut String, items: &mut dyn Iterator<Item = String>| {
        out.push('[');
        for (i, item) in items.enumerate() {
            let comma = if i > 0 { "," } else { "" };
            let _ = write!(out, "{comma}\"{item}\"");
        }
        out.push(']');
    };
    match &e.action {
        Action::Deal(hands) => {
            out.push_str("\"deal\":{");
            for (i, (p, cards)) in hands.iter().enumerate() {
                let comma = if i > 0 { "," } else { "" };
                let _ = write!(out, "{comma}\"{}\":", names[usize::from(*p)]);
                list(out, &mut cards.iter().map(Card::to_string));
            }
            out.push('}');
        }
        Action::Snacks(each) => {
            out.push_str("\"snacks\":{");
            for (i, (p, snacks)) in each.iter().enumerate() {
                let comma = if i > 0 { "," } else { "" };
                let _ = write!(out, "{comma}\"{}\":", names[usize::from(*p)]);
                list(out, &mut snacks.iter().map(|s| s.code().to_string()));
            }
            out.push('}');
        }
        Action::Arrange(order) => {
            out.push_str("\"arrange\":");
            list(out, &mut order.iter().map(|s| s.code().to_string()));
        }
        Action::Start(p) => {
            let _ = write!(out, "\"start\":\"{}\"", names[usize::from(*p)]);
        }
        Action::Declare => out.push_str("\"declare\":\"nondrinker\""),
        Action::Play(c) => {
            let _ = write!(out, "\"play\":\"{c}\"");
        }
        Action::Snack(uses) => {
            out.push_str("\"snack\":[");
            for (i, u) in uses.iter().enumerate() {
                let comma = if i > 0 { "," } else { "" };
                let _ = write!(out, "{comma}{{\"card\":\"{}\",\"add\":{}}}", u.card.code(), u.add);
            }
            out.push(']');
        }
        Action::Won(p) => {
            let _ = write!(out, "\"won\":\"{}\"", names[usize::from(*p)]);
        }
        Action::Score(claimed) => {
            out.push_str("\"score\":{");
            for (i, (p, vp)) in claimed.iter().enumerate() {
                let comma = if i > 0 { "," } else { "" };
                let _ = write!(out, "{comma}\"{}\":{vp}", names[usize::from(*p)]);
            }
            out.push('}');
        }
    }
    out.push('}');
}

/// A whole game as one line of JSON Lines (without `variant`: the default parameters).
pub fn transcript_line(names: &[String], events: &[Event]) -> String {
    let mut out = String::from("{\"rules\":\"hangover\",\"players\":[");
    for (i, name) in names.iter().enumerate() {
        let comma = if i > 0 { "," } else { "" };
        let _ = write!(out, "{comma}\"{name}\"");
    }
    out.push_str("],\"events\":[");
    for (i, e) in events.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        event_json(names, e, &mut out);
    }
    out.push_str("]}");
    out
}

/// The names `shinpan play` gives the seats.
pub fn seat_names(players: usize) -> Vec<String> {
    ["aki", "ben", "chie", "dai", "emi"].iter().take(players).map(|s| s.to_string()).collect()
}
