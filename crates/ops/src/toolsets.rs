//! The toolsets a user may choose to serve (`cdesk mcp --toolsets`, `--read-only`) and the selection they make.
use crate::*;

/// A group of agent tools a user may choose to serve (`cdesk mcp --toolsets planner,studio`): each
/// operation belongs to one, by the first word of its command path ([`Toolset::NOUNS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Toolset {
    Planner,
    Studio,
    BrandKit,
    Media,
    Inspiration,
    Account,
}

impl Toolset {
    pub const ALL: [Toolset; 6] = [Toolset::Planner, Toolset::Studio, Toolset::BrandKit, Toolset::Media, Toolset::Inspiration, Toolset::Account];

    /// The first words of the command paths of each toolset's operations.
    pub(crate) const NOUNS: &[(Toolset, &[&str])] = &[
        (Toolset::Planner, &["space", "stage", "card", "calendar", "tag", "archive", "connected-account"]),
        (Toolset::Studio, &["generate", "upscale", "generation", "model", "voice", "project"]),
        (Toolset::BrandKit, &["brand-kit", "knowledge"]),
        (Toolset::Media, &["media"]),
        (Toolset::Inspiration, &["content", "tracked-account"]),
        (Toolset::Account, &["account"]),
    ];

    /// Its name on the command line and in `--list-tools`.
    pub fn name(self) -> &'static str {
        match self {
            Toolset::Planner => "planner",
            Toolset::Studio => "studio",
            Toolset::BrandKit => "brand-kit",
            Toolset::Media => "media",
            Toolset::Inspiration => "inspiration",
            Toolset::Account => "account",
        }
    }

    /// What it holds, for `--help`.
    pub fn about(self) -> &'static str {
        match self {
            Toolset::Planner => "spaces, stages, cards, the calendar export, tags, archive, publishing and connected accounts",
            Toolset::Studio => "renders (image, video, audio, boards, lip-sync, upscale), their status, models, voices, projects",
            Toolset::BrandKit => "brand kits, their sections and knowledge (and the section resources)",
            Toolset::Media => "the media library",
            Toolset::Inspiration => "tracked accounts and their posts",
            Toolset::Account => "the credit balance",
        }
    }

    /// `brand-kit` → [`Toolset::BrandKit`].
    pub fn parse(name: &str) -> Option<Toolset> {
        Toolset::ALL.into_iter().find(|t| t.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The toolset of a command path (`None`: a noun no toolset lists, refused by a test).
    fn of(path: &[&str]) -> Option<Toolset> {
        let noun = path.first()?;
        Toolset::NOUNS.iter().find(|(_, nouns)| nouns.contains(noun)).map(|(t, _)| *t)
    }
}

impl Meta {
    /// The toolset this operation belongs to.
    pub fn toolset(&self) -> Toolset {
        Toolset::of(self.path).unwrap_or(Toolset::Planner)
    }
}

/// Which agent tools a server offers: the toolsets chosen (all by default), and `read_only`, which wins
/// over every other choice: only operations whose effect is [`Effect::Read`] (the tools annotated
/// `readOnlyHint: true`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    pub toolsets: Vec<Toolset>,
    pub read_only: bool,
}

impl Default for Selection {
    fn default() -> Selection {
        Selection { toolsets: Toolset::ALL.to_vec(), read_only: false }
    }
}

impl Selection {
    /// From `--toolsets a,b` (`None` or `all`: every toolset) and `--read-only`; an unknown name is
    /// refused naming the known ones.
    pub fn parse(toolsets: Option<&str>, read_only: bool) -> Result<Selection, String> {
        let Some(list) = toolsets else { return Ok(Selection { read_only, ..Selection::default() }) };
        let mut chosen = Vec::new();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if name.eq_ignore_ascii_case("all") {
                chosen = Toolset::ALL.to_vec();
                continue;
            }
            let t = Toolset::parse(name).ok_or_else(|| {
                let known: Vec<&str> = Toolset::ALL.iter().map(|t| t.name()).collect();
                format!("unknown toolset `{name}`: the toolsets are {} (or all)", known.join(", "))
            })?;
            if !chosen.contains(&t) {
                chosen.push(t);
            }
        }
        if chosen.is_empty() {
            return Err("--toolsets names no toolset: give one or more of planner, studio, brand-kit, media, inspiration, account (or all)".into());
        }
        Ok(Selection { toolsets: chosen, read_only })
    }

    /// Whether this selection serves the operation.
    pub fn serves(&self, meta: &Meta) -> bool {
        self.toolsets.contains(&meta.toolset()) && (!self.read_only || meta.effect == Effect::Read)
    }

    /// Whether a toolset is chosen (for what is not a tool: the brand kit's section resources).
    pub fn has(&self, toolset: Toolset) -> bool {
        self.toolsets.contains(&toolset)
    }

    /// The agent tools this selection offers, in catalogue order.
    pub fn tools(&self) -> impl Iterator<Item = &'static Entry> + '_ {
        agent_catalogue().filter(|e| self.serves(&e.meta))
    }

    /// The agent tool of this name, when this selection offers it.
    pub fn tool(&self, name: &str) -> Option<&'static Entry> {
        self.tools().find(|e| e.meta.tool == name)
    }
}
