//! What PBN and LIN share: a bridge deal as the record gives it, and the transcript it
//! becomes (rules/bridge.md sections 11 and 12). The auction is replayed here only as far as
//! a converter must: to know whether it ended, the contract's strain (the play table of PBN
//! is in fixed columns, and the order of play depends on who won each trick) and declarer.

use serde_json::{Value as Json, json};

pub const SEATS: [&str; 4] = ["N", "E", "S", "W"];
const RANKS: &str = "23456789TJQKA";
const STRAINS: [&str; 5] = ["C", "D", "H", "S", "NT"];

pub fn seat(text: &str) -> Option<usize> {
    SEATS.iter().position(|s| s.eq_ignore_ascii_case(text.trim()))
}

pub fn partner(seat: usize) -> usize {
    (seat + 2) % 4
}

/// A card as the transcript writes it (`SA`, `HT`), from a record's spelling in either case
/// (`10` for the ten too).
pub fn card(text: &str) -> Option<String> {
    let upper = text.to_ascii_uppercase().replace("10", "T");
    let mut chars = upper.chars();
    let (suit, rank) = (chars.next()?, chars.next()?);
    ("SHDC".contains(suit) && RANKS.contains(rank) && chars.next().is_none()).then(|| format!("{suit}{rank}"))
}

/// A call as the transcript writes it: `Pass`, `X`, `XX`, `1C` to `7NT`.
pub fn call(text: &str) -> Option<String> {
    let upper = text.to_ascii_uppercase();
    match upper.as_str() {
        "PASS" | "P" => return Some("Pass".into()),
        "X" | "XX" => return Some(upper),
        _ => {}
    }
    let level = upper.chars().next().filter(|c| ('1'..='7').contains(c))?;
    let strain = match &upper[1..] {
        "N" | "NT" => "NT",
        s => STRAINS.iter().find(|x| **x == s)?,
    };
    Some(format!("{level}{strain}"))
}

pub fn is_bid(call: &str) -> bool {
    call.starts_with(|c: char| c.is_ascii_digit())
}

/// A contract as a record's tag gives it: `Pass`, or a bid with an optional `X`/`XX`.
pub fn contract_tag(text: &str) -> Option<(String, &'static str)> {
    let upper = text.trim().to_ascii_uppercase();
    if upper == "PASS" {
        return Some(("Pass".into(), ""));
    }
    let (bid, risk) = if let Some(b) = upper.strip_suffix("XX") {
        (b, "XX")
    } else if let Some(b) = upper.strip_suffix('X') {
        (b, "X")
    } else {
        (upper.as_str(), "")
    };
    Some((call(bid).filter(|c| is_bid(c))?, risk))
}

/// How an auction ended, replayed from its calls (Laws 19, 22).
#[derive(Debug, Clone, PartialEq)]
pub enum AuctionEnd {
    Incomplete,
    PassedOut,
    Contract { bid: String, declarer: usize, risk: &'static str },
}

pub fn auction_end(calls: &[(usize, String)]) -> AuctionEnd {
    let mut last: Option<(usize, &str)> = None;
    let mut risk = "";
    let mut passes = 0;
    for (who, c) in calls {
        match c.as_str() {
            "Pass" => passes += 1,
            "X" => (risk, passes) = ("X", 0),
            "XX" => (risk, passes) = ("XX", 0),
            bid => (last, risk, passes) = (Some((*who, bid)), "", 0),
        }
    }
    match last {
        None if passes >= 4 => AuctionEnd::PassedOut,
        Some((bidder, bid)) if passes >= 3 => {
            let strain = &bid[1..];
            let declarer = calls
                .iter()
                .find(|(who, c)| who % 2 == bidder % 2 && is_bid(c) && &c[1..] == strain)
                .map_or(bidder, |(who, _)| *who);
            AuctionEnd::Contract { bid: bid.to_string(), declarer, risk }
        }
        _ => AuctionEnd::Incomplete,
    }
}

/// The trump suit of a bid, if any.
pub fn trump(bid: &str) -> Option<char> {
    // `1NT`'s second letter is `N`, no suit.
    bid.chars().nth(1).filter(|c| "SHDC".contains(*c))
}

/// The seat that wins a complete trick of (seat, card), the lead first.
pub fn trick_winner(trick: &[(usize, String)], trump: Option<char>) -> usize {
    let suit = |c: &str| c.chars().next();
    let rank = |c: &str| c.chars().nth(1).and_then(|r| RANKS.find(r)).unwrap_or(0);
    let led = suit(&trick[0].1);
    let trumps = trick.iter().filter(|(_, c)| trump.is_some() && suit(c) == trump);
    let contenders: Vec<&(usize, String)> = if trumps.clone().next().is_some() {
        trumps.collect()
    } else {
        trick.iter().filter(|(_, c)| suit(c) == led).collect()
    };
    contenders.iter().max_by_key(|(_, c)| rank(c)).map_or(trick[0].0, |(who, _)| *who)
}

/// A contract as the transcript's contract event writes it.
pub fn contract_json(bid: &str, declarer: usize, risk: &str) -> Json {
    if bid == "Pass" {
        return json!("Pass");
    }
    let mut c = json!({"bid": bid, "declarer": SEATS[declarer]});
    if !risk.is_empty() {
        c["risk"] = json!(risk);
    }
    c
}

/// One event with an optional note.
pub fn event(by: &str, action: &str, arg: Json, note: Option<String>) -> Json {
    let mut e = json!({"by": by, action: arg});
    if let Some(n) = note {
        e["note"] = json!(n);
    }
    e
}

/// The deal event, each hand in the record's order; an error says what is wrong.
pub fn deal_event(hands: &[Vec<String>; 4]) -> Result<Json, String> {
    let mut seen = std::collections::HashSet::new();
    for (s, hand) in hands.iter().enumerate() {
        if hand.len() != 13 {
            return Err(format!("{}'s hand has {} cards, not 13", SEATS[s], hand.len()));
        }
        if let Some(twice) = hand.iter().find(|c| !seen.insert(c.as_str())) {
            return Err(format!("{twice} is dealt twice"));
        }
    }
    let deal: serde_json::Map<String, Json> = SEATS.iter().zip(hands).map(|(s, h)| (s.to_string(), json!(h))).collect();
    Ok(json!({"by": "table", "deal": deal}))
}

/// A whole transcript around its events.
pub fn transcript(meta: Json, events: Vec<Json>) -> Json {
    json!({"rules": "bridge", "players": SEATS, "meta": meta, "events": events})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calls(seq: &[(usize, &str)]) -> Vec<(usize, String)> {
        seq.iter().map(|(who, c)| (*who, c.to_string())).collect()
    }

    #[test]
    fn partners_sit_across() {
        assert_eq!([0, 1, 2, 3].map(partner), [2, 3, 0, 1]);
    }

    #[test]
    fn only_a_level_and_strain_is_a_bid() {
        assert!(is_bid("1C") && is_bid("7NT"));
        assert!(!is_bid("Pass") && !is_bid("X") && !is_bid("XX"));
    }

    #[test]
    fn an_auction_ends_after_three_passes_over_a_bid_or_four_without() {
        assert_eq!(auction_end(&calls(&[(0, "Pass"), (1, "Pass"), (2, "Pass")])), AuctionEnd::Incomplete);
        let four = calls(&[(0, "Pass"), (1, "Pass"), (2, "Pass"), (3, "Pass")]);
        assert_eq!(auction_end(&four), AuctionEnd::PassedOut);
        assert_eq!(auction_end(&calls(&[(0, "1C"), (1, "Pass"), (2, "Pass")])), AuctionEnd::Incomplete);
        let end = auction_end(&calls(&[(0, "1C"), (1, "Pass"), (2, "Pass"), (3, "Pass")]));
        assert_eq!(end, AuctionEnd::Contract { bid: "1C".into(), declarer: 0, risk: "" });
        // Declarer first bid the strain for the side; a double and a redouble stand.
        let auction = [(0, "1H"), (1, "1S"), (2, "4H"), (3, "X"), (0, "XX"), (1, "Pass"), (2, "Pass"), (3, "Pass")];
        let end = auction_end(&calls(&auction));
        assert_eq!(end, AuctionEnd::Contract { bid: "4H".into(), declarer: 0, risk: "XX" });
        let partner_first = [(1, "1S"), (2, "Pass"), (3, "2S"), (0, "Pass"), (1, "Pass"), (2, "Pass")];
        assert!(matches!(auction_end(&calls(&partner_first)), AuctionEnd::Contract { declarer: 1, .. }));
    }

    #[test]
    fn no_trump_has_no_trump_suit() {
        assert_eq!([trump("4S"), trump("1C"), trump("3NT")], [Some('S'), Some('C'), None]);
    }
}
