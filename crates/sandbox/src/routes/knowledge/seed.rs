//! The demo kit's knowledge items.
use super::*;
use crate::tables::brand_kits;

/// Three items on the default kit: a text note, a Markdown file (as if uploaded as base64) and a web page
/// recorded by address.
pub fn seed_demo(
    conn: &rusqlite::Connection,
    account_id: &str,
) -> rusqlite::Result<()> {
    let Some(kit_id) = brand_kits::default_kit_id(conn, account_id)? else {
        return Ok(());
    };
    let items = [
        Source {
            title: "Founder story".into(),
            source_type: "text".into(),
            source_url: None,
            file_ext: None,
            size_bytes: Some(FOUNDER_STORY.len() as i64),
            content: FOUNDER_STORY.into(),
        },
        Source {
            title: "Pricing and packages FAQ".into(),
            source_type: "file".into(),
            source_url: None,
            file_ext: Some("md".into()),
            size_bytes: Some(PRICING_FAQ.len() as i64),
            content: PRICING_FAQ.into(),
        },
        Source {
            title: "Press page".into(),
            source_type: "url".into(),
            source_url: Some("https://demostudio.example/press".into()),
            file_ext: None,
            size_bytes: None,
            content: String::new(),
        },
    ];
    for item in &items {
        insert_item(conn, &kit_id, item)?;
    }
    Ok(())
}

pub(super) const FOUNDER_STORY: &str = "Demo Studio began in 2019 when Maya Okafor, then a wedding camera operator, \
offered to film the menu launch of the café below her flat in exchange for a month of coffee. The reel \
reached eleven thousand people in a town of forty thousand, and three neighbouring shops asked for the same \
the following week.

Maya teamed up with Tom Reyes, an editor who had cut documentaries for regional television. They set one \
rule from the start: film the real work, never stage it. Bakers bake, joiners cut, stylists style; the \
camera waits for the moment the craft shows.

In 2021 the studio moved into the old print works and started the monthly retainer that most clients now \
use. The team is still two people, with a freelance sound recordist for longer shoots.

The studio's proudest result so far: a family bakery that went from twelve to forty-one weekend pre-orders \
after two months of weekly reels showing the 5 a.m. bake.";

pub(super) const PRICING_FAQ: &str = "# Pricing and packages FAQ

## How much does the monthly retainer cost?

Studio Month costs £850 a month with a minimum of three months. It includes a planning session, a half-day \
shoot, eight short vertical videos, one longer YouTube video or carousel set, captions, thumbnails and a \
monthly report.

## Is there a cheaper way to start?

Yes. Launch Day is a one-off £390: a two-hour shoot and four edited shorts. Most retainer clients start \
with a Launch Day.

## Do you run paid ads?

No. We make the videos and can publish them, but we do not manage ad spend or promise follower growth.

## How fast do we get the videos?

Edits arrive within five working days of the shoot. A rush edit in 48 hours costs 25% extra.

## Can our staff learn to film?

Our workshop, Filming on your phone, costs £240 for up to six people and covers framing, light, sound and \
hooks in two hours.";
