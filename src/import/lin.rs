//! LIN (Bridge Base Online) records: `key|value|` pairs, each `md|` a new deal; rules/bridge.md
//! section 12. A deal converts to the events of the PBN deal it stands for.

use serde_json::{Value as Json, json};

use super::Deal;
use super::bridge::{self as b, AuctionEnd, SEATS};

/// One `key|value|` pair and the line it starts on.
struct Pair {
    key: String,
    value: String,
    line: usize,
}

fn pairs(text: &str) -> Vec<Pair> {
    let mut out = vec![];
    let mut parts = text.split('|');
    let mut line = 1;
    while let (Some(key), Some(value)) = (parts.next(), parts.next()) {
        // A key starts after the line ends that come before it.
        let leading = key.len() - key.trim_start().len();
        let key_line = line + key[..leading].matches('\n').count();
        line += key.matches('\n').count() + value.matches('\n').count();
        out.push(Pair { key: key.trim().to_ascii_lowercase(), value: value.to_string(), line: key_line });
    }
    out
}

/// The pairs of one deal: from its `md|` to the next; names and other keys given before the
/// first `md|` belong to the first deal.
struct Record<'a> {
    pairs: Vec<&'a Pair>,
    names: Option<&'a str>,
}

pub fn deals(text: &str) -> Vec<Deal> {
    let all = pairs(text);
    let mut records: Vec<Record> = vec![];
    let mut before: Vec<&Pair> = vec![];
    let mut names = None;
    for p in &all {
        match (p.key.as_str(), records.last_mut()) {
            ("pn", _) => names = Some(p.value.as_str()),
            ("md", _) => {
                let mut pairs = std::mem::take(&mut before);
                pairs.push(p);
                records.push(Record { pairs, names });
            }
            (_, Some(r)) => r.pairs.push(p),
            (_, None) => before.push(p),
        }
    }
    records.iter().enumerate().map(|(i, r)| r.deal(i + 1)).collect()
}

impl Record<'_> {
    fn value(&self, key: &str) -> Option<&str> {
        self.pairs.iter().find(|p| p.key == key).map(|p| p.value.as_str())
    }

    fn deal(&self, number: usize) -> Deal {
        let line = self.pairs.iter().find(|p| p.key == "md").map_or(1, |p| p.line);
        let board =
            self.value("ah").map(|a| super::capped(a.trim().trim_start_matches("Board").trim(), super::MAX_ECHOED_TAG));
        Deal { number, line, board, room: None, transcript: self.transcript() }
    }

    fn transcript(&self) -> Result<Json, String> {
        let (dealer, hands) = hands(self.value("md").unwrap_or_default())?;
        let mut events = vec![b::deal_event(&hands)?, json!({"by": "table", "dealer": SEATS[dealer]})];
        if let Some(v) = self.value("sv").and_then(vulnerability) {
            events.push(json!({"by": "table", "vulnerable": v}));
        }
        let calls = self.calls(dealer, &mut events)?;
        if let AuctionEnd::Contract { bid, declarer, .. } = b::auction_end(&calls) {
            self.play(&mut events, &bid, declarer)?;
        }
        Ok(b::transcript(self.meta(), events))
    }

    fn meta(&self) -> Json {
        let mut meta = serde_json::Map::new();
        if let Some(board) = self.value("ah") {
            meta.insert("board".into(), json!(super::capped(board.trim(), super::MAX_META_TAG)));
        }
        // `pn|S,W,N,E|`: South, West, North, East.
        if let Some(names) = self.names {
            let order = ["S", "W", "N", "E"];
            let names: serde_json::Map<String, Json> = order
                .iter()
                .zip(names.split(','))
                .map(|(s, n)| (s.to_string(), json!(super::capped(n.trim(), super::MAX_META_TAG))))
                .collect();
            meta.insert("names".into(), Json::Object(names));
        }
        Json::Object(meta)
    }

    /// `mb|CALL|` in order from the dealer, `an|TEXT|` explaining the call before it.
    fn calls(&self, dealer: usize, events: &mut Vec<Json>) -> Result<Vec<(usize, String)>, String> {
        let mut calls: Vec<(usize, String)> = vec![];
        for p in &self.pairs {
            match p.key.as_str() {
                "mb" => {
                    let seat = (dealer + calls.len()) % 4;
                    let call = lin_call(&p.value).ok_or_else(|| {
                        format!("line {}: `{}` is not a call", p.line, crate::transcript::cut(&p.value))
                    })?;
                    events.push(b::event(SEATS[seat], "call", json!(call), None));
                    calls.push((seat, call));
                }
                "an" if !calls.is_empty() => {
                    if let Some(last) = events.last_mut() {
                        last["note"] = json!(p.value.trim());
                    }
                }
                _ => {}
            }
        }
        Ok(calls)
    }

    /// `pc|CARD|` in playing order, from declarer's left; `mc|N|` a claim.
    fn play(&self, events: &mut Vec<Json>, bid: &str, declarer: usize) -> Result<(), String> {
        let trump = b::trump(bid);
        let mut seat = (declarer + 1) % 4;
        let mut trick: Vec<(usize, String)> = vec![];
        let mut won = [0i64; 2];
        let mut played = 0;
        for p in &self.pairs {
            match p.key.as_str() {
                "pc" => {
                    let card = b::card(p.value.trim()).ok_or_else(|| {
                        format!("line {}: `{}` is not a card", p.line, crate::transcript::cut(&p.value))
                    })?;
                    events.push(json!({"by": SEATS[seat], "play": card}));
                    trick.push((seat, card));
                    played += 1;
                    seat = (seat + 1) % 4;
                    if trick.len() == 4 {
                        seat = b::trick_winner(&trick, trump);
                        won[seat % 2] += 1;
                        trick.clear();
                    }
                }
                "mc" => {
                    let n: i64 = p.value.trim().parse().map_err(|_| {
                        format!("line {}: `mc|{}|` is not a trick count", p.line, crate::transcript::cut(&p.value))
                    })?;
                    events.push(json!({"by": SEATS[declarer], "claim": n}));
                    events.push(json!({"by": "table", "result": n}));
                    return Ok(());
                }
                _ => {}
            }
        }
        if played == 52 {
            events.push(json!({"by": "table", "result": won[declarer % 2]}));
        }
        Ok(())
    }
}

/// `md|3S25H79TD35AC357JA,S368...,...,|`: the dealer (1 South, 2 West, 3 North, 4 East), then
/// the hands of South, West, North and East; a missing last hand holds the other 13 cards.
fn hands(md: &str) -> Result<(usize, [Vec<String>; 4]), String> {
    let md = md.trim();
    let dealer = match md.chars().next() {
        Some('1') => 2,
        Some('2') => 3,
        Some('3') => 0,
        Some('4') => 1,
        _ => return Err(format!("`md|{}|` does not start with a dealer 1 to 4", crate::transcript::cut(md))),
    };
    let mut out: [Vec<String>; 4] = Default::default();
    let order = [2, 3, 0, 1];
    let hands: Vec<&str> = md[1..].split(',').collect();
    for (i, seat) in order.iter().enumerate() {
        out[*seat] = hand(hands.get(i).copied().unwrap_or(""))?;
    }
    if out[1].is_empty() {
        let held: Vec<&String> = out.iter().flatten().collect();
        out[1] = deck().into_iter().filter(|c| !held.contains(&c)).collect();
    }
    Ok((dealer, out))
}

fn deck() -> Vec<String> {
    "SHDC".chars().flat_map(|s| "AKQJT98765432".chars().map(move |r| format!("{s}{r}"))).collect()
}

/// `S25H79TD35AC357JA`: suit letters, each followed by its ranks.
fn hand(text: &str) -> Result<Vec<String>, String> {
    let mut suit = None;
    let mut cards = vec![];
    for c in text.trim().chars() {
        match c.to_ascii_uppercase() {
            s @ ('S' | 'H' | 'D' | 'C') => suit = Some(s),
            r => {
                let quoted = || crate::transcript::cut(text);
                let s = suit.ok_or_else(|| format!("the hand `{}` gives a rank before a suit", quoted()))?;
                cards.push(
                    b::card(&format!("{s}{r}")).ok_or_else(|| format!("`{r}` is not a rank (in `{}`)", quoted()))?,
                );
            }
        }
    }
    Ok(cards)
}

/// `p`, `d`, `r`, `1c` to `7n`, in either case; a trailing `!` (an alert) is dropped.
fn lin_call(text: &str) -> Option<String> {
    let t = text.trim().trim_end_matches('!').to_ascii_uppercase();
    match t.as_str() {
        "P" => Some("Pass".into()),
        "D" => Some("X".into()),
        "R" => Some("XX".into()),
        _ if b::is_bid(&t) => b::call(&t),
        _ => None,
    }
}

fn vulnerability(v: &str) -> Option<&'static str> {
    match v.trim().to_ascii_lowercase().as_str() {
        "o" | "0" => Some("None"),
        "n" => Some("NS"),
        "e" => Some("EW"),
        "b" => Some("All"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_on_the_line_its_key_starts() {
        let found = pairs("pn|a,b,c,d|\n\nmd|3S2|\nmb|p|mb|1C|\npc|SA|an|two\nlines|pc|SK|");
        let seen: Vec<(&str, usize)> = found.iter().map(|p| (p.key.as_str(), p.line)).collect();
        assert_eq!(seen, [("pn", 1), ("md", 3), ("mb", 4), ("mb", 4), ("pc", 5), ("an", 5), ("pc", 6)]);
        assert_eq!(found[1].value, "3S2");
    }

    #[test]
    fn each_md_starts_a_deal_numbered_from_one() {
        let text = "pn|s,w,n,e|ah|Board 7|\nmd|3S2|mb|p|\nmd|1|ah|Board 8|";
        let found = deals(text);
        let seen: Vec<(usize, usize, Option<&str>)> =
            found.iter().map(|d| (d.number, d.line, d.board.as_deref())).collect();
        // The first deal keeps what came before its `md` (the board); both cannot be dealt.
        // A deal's line is its `md`'s, not that of what came before it.
        assert_eq!(seen, [(1, 2, Some("7")), (2, 3, Some("8"))]);
        assert!(found.iter().all(|d| d.transcript.is_err()));
    }

    #[test]
    fn calls_and_vulnerability_in_lin_words() {
        let calls: Vec<Option<String>> =
            ["p", "D", "r", "1c", "7n!", "3NT", "pass", "x", "8c", ""].iter().map(|t| lin_call(t)).collect();
        let some = |s: &str| Some(s.to_string());
        assert_eq!(
            calls,
            [some("Pass"), some("X"), some("XX"), some("1C"), some("7NT"), some("3NT"), None, None, None, None]
        );
        let vul: Vec<Option<&str>> = ["o", "0", "n", "E", " b ", "x"].iter().map(|v| vulnerability(v)).collect();
        assert_eq!(vul, [Some("None"), Some("None"), Some("NS"), Some("EW"), Some("All"), None]);
    }

    /// The names (`pn`, South first) and board go to `meta`; an explanation (`an`) goes to the
    /// call before it, and one before any call to nothing.
    #[test]
    fn names_board_and_explanations() {
        let md = "md|3S346TJH9QD69TC57K,S7H2347KD37JKC46A,S2KH58TD2458C389J,|";
        let text = format!("pn|south,west,north,east|{md}ah|Board 9|sv|e|an|too early|mb|p|an|nothing to say|mb|1S|");
        let t = deals(&text).remove(0).transcript.unwrap();
        assert_eq!(
            t["meta"],
            json!({"board": "Board 9", "names": {"S": "south", "W": "west", "N": "north", "E": "east"}})
        );
        let events = t["events"].as_array().unwrap();
        let notes: Vec<&Json> = events.iter().map(|e| &e["note"]).collect();
        assert_eq!(notes, [&Json::Null, &Json::Null, &Json::Null, &json!("nothing to say"), &Json::Null]);
        assert_eq!(events[3], json!({"by": "N", "call": "Pass", "note": "nothing to say"}));
    }
}
