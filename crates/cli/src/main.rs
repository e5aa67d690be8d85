//! `cdesk`: the Content Production Service API from a terminal and from scripts. Every `<noun> <verb>`
//! is an operation of the catalogue (crates/ops), built here into clap subcommands; `schema`,
//! `completions` and `auth status` are the shell's own. Data goes to stdout, talk to stderr; exit codes
//! as the official CLI's (see `contentdesk_ops::OpError::exit_code`).
mod backup;
mod keys;
mod local;
mod login;
mod mcp;
mod mcp_confirm;
mod mcp_gate;
mod mcp_http;
mod mcp_schema;
mod mcp_text;
mod output;
mod progress;
#[cfg(test)]
mod help_tests;

use clap::{Arg, ArgAction, ArgMatches, Command};
use contentdesk_ops::{catalogue, Cx, Entry, OpError};
use output::Format;
use serde_json::{json, Value};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;

const ABOUT: &str = "The Content Production Service API from a terminal: cards, renders, brand kits and more.";
const AFTER_HELP: &str = "\
Key: --api-key, then CONTENTHERO_API_KEY, then a Content Desk profile's key in the OS keyring (--profile,
else the app's selected profile), then cdesk's own keyring entry (cdesk login), then
~/.contenthero/credentials (mode 0600).
Output: JSON when piped or with --json, as the official CLI prints it (lists as bare arrays; with --envelope,
in the service's envelope with its paging fields); tables at a terminal or with --human.
Exit codes: 0 ok, 1 error (also a card publish where every post failed), 2 usage or 400, 3 auth (401, 403 naming the scope, no key; auth status too), 4 a render not finished in time (its outputId still printed), 5 conflict (nothing written), 6 a card check found what a platform would refuse, or a card import refused a row.";

/// The whole command line: the global flags, one subcommand per noun with one per operation under it,
/// and the shell's own commands.
fn cli() -> Command {
    let mut root = Command::new("cdesk")
        .version(env!("CARGO_PKG_VERSION"))
        .about(ABOUT)
        .after_help(AFTER_HELP)
        .arg_required_else_help(true)
        .subcommand_required(true)
        .arg(Arg::new("api-key").long("api-key").global(true).value_name("KEY").help("The API key (else CONTENTHERO_API_KEY, the keyring, the credential file)"))
        .arg(Arg::new("base-url").long("base-url").global(true).value_name("URL").help("The API's base URL, or its host alone (/api/v1 added, as the official CLI reads CONTENTHERO_BASE_URL); else CONTENTHERO_BASE_URL, the profile's, the default"))
        .arg(Arg::new("profile").long("profile").global(true).value_name("NAME").help("A Content Desk profile, by name or id (default: the app's selected profile)"))
        .arg(Arg::new("sandbox").long("sandbox").global(true).action(ArgAction::SetTrue).conflicts_with_all(["api-key", "base-url"])
            .help("The desktop app's local sandbox (the data the window shows), whether the app is open or not; as --profile Sandbox"))
        .arg(Arg::new("json").long("json").global(true).action(ArgAction::SetTrue).conflicts_with("human").help("JSON on stdout (the default when piped)"))
        .arg(Arg::new("human").long("human").global(true).action(ArgAction::SetTrue).help("Tables and key-values (the default at a terminal)"))
        .arg(Arg::new("wide").long("wide").global(true).action(ArgAction::SetTrue).conflicts_with("json")
            .help("Tables and key-values with the ids (a card's, its stage's) beside the names"))
        .arg(Arg::new("envelope").long("envelope").global(true).action(ArgAction::SetTrue).conflicts_with("human")
            .help("JSON: a list in the service's envelope with its paging fields ({\"cards\": […], \"total\", \"hasMore\"}), not the bare array the official CLI prints"))
        .arg(Arg::new("verbose").long("verbose").global(true).action(ArgAction::SetTrue).help("Progress on stderr even when it is not a terminal"));
    let mut nouns: Vec<Noun> = Vec::new();
    for e in catalogue() {
        add(&mut nouns, e.meta.path, e);
    }
    root = root.subcommands(nouns.into_iter().map(Noun::command));
    root.subcommand(
        Command::new("schema")
            .about("Print the JSON Schema of an operation's input (all operations without a command)")
            .arg(Arg::new("command").num_args(0..).value_name("COMMAND").help("The command's words, e.g. `cdesk schema card update`")),
    )
    .subcommand(
        Command::new("completions")
            .about("Print a shell completion script, e.g. `cdesk completions bash` (into /etc/bash_completion.d/cdesk)")
            .arg(Arg::new("shell").required(true).value_parser(clap::value_parser!(clap_complete::Shell)).help("The shell to complete for")),
    )
    .subcommand(
        Command::new("mcp")
            .about("Serve the operations as MCP agent tools over stdio (for Claude, Cursor, …)")
            .long_about("Serve the operations as Model Context Protocol tools over stdio, with each brand kit's sections as resources and a draft_post prompt. Configure an MCP client with {\"command\": \"cdesk\", \"args\": [\"mcp\"]}. The key comes from the same ladder as every command; no tool takes or returns a key. Logs go to stderr; stdout is the protocol.")
            .arg(Arg::new("list-tools").long("list-tools").action(ArgAction::SetTrue).help("Print the table of the tools served (name, toolset, command, effect, annotations) and exit"))
            .arg(Arg::new("toolsets").long("toolsets").value_name("LIST").help(toolsets_help()))
            .arg(Arg::new("read-only").long("read-only").action(ArgAction::SetTrue)
                .help("Serve only the tools annotated read-only (nothing written, spent or deleted); wins over --toolsets"))
            .arg(Arg::new("confirm-spend-over").long("confirm-spend-over").value_name("CREDITS").value_parser(clap::value_parser!(f64))
                .help("Ask the user (MCP elicitation) before a render priced above CREDITS and before publishing a card now; declined, or a client that cannot ask: nothing is spent or published. With --http the server keeps sessions (in its memory: one instance per address)"))
            .arg(Arg::new("http").long("http").value_name("ADDR").conflicts_with("list-tools")
                .help("Serve over Streamable HTTP at ADDR (e.g. 127.0.0.1:8790), path /mcp, as an OAuth protected resource: no API key, each request acts with its user's access token"))
            .arg(Arg::new("issuer").long("issuer").value_name("URL").requires("http")
                .help("The OAuth authorization server (default: the base URL without /api/v1)"))
            .arg(Arg::new("public-url").long("public-url").value_name("URL").requires("http")
                .help("How clients reach this server (default: http://ADDR); the resource is <URL>/mcp"))
            .arg(Arg::new("allow-origin").long("allow-origin").value_name("ORIGIN").action(ArgAction::Append).requires("http")
                .help("A browser origin allowed to call /mcp besides the server's own (repeatable); a request with any other Origin header is refused with 403")),
    )
    .subcommand(
        Command::new("login")
            .about("Connect in the browser (or --with-key), check the key with a balance read, store it (the OS keyring, or ~/.contenthero/credentials)")
            .arg(Arg::new("with-key").long("with-key").num_args(0..=1).value_name("KEY")
                .help("Store this key (without a value: read from stdin) instead of connecting in the browser"))
            .arg(Arg::new("file").long("file").action(ArgAction::SetTrue).help("Store it in ~/.contenthero/credentials (mode 0600), not the keyring")),
    )
    .subcommand(
        // For packagers (scripts/package.sh): the man pages, written from this command tree, not kept in git.
        Command::new("__man")
            .hide(true)
            .about("Write the man pages (cdesk.1 and one per command group) into DIR")
            .arg(Arg::new("dir").required(true).value_name("DIR").value_parser(clap::value_parser!(std::path::PathBuf))),
    )
    .subcommand(
        Command::new("version")
            .about("Print cdesk's version; with --check, ask the release server whether a newer Content Desk is out")
            .long_about("Print cdesk's version (the app's: one version for both). With --check, read the release manifest (latest.json; CONTENTDESK_UPDATE_URL overrides where) and say whether a newer version signed with Content Desk's key is there, with its notes: the same check as the app's Settings → Updates. JSON when piped: {state, current, version, notes, date, note, manual}. Exit 0 when the check answered (up to date or a newer version), 1 when it could not (no network, server down or slow, a manifest that does not parse or is signed by another key).")
            .arg(Arg::new("check").long("check").action(ArgAction::SetTrue).help("Ask the release server whether a newer version is out")),
    )
    .subcommand(backup::command())
    .subcommand(Command::new("logout").about("Remove the key login stored (cdesk's keyring entry, or --profile's; the credential file)"))
    .subcommand(
        Command::new("auth")
            .about("Which key is used and whether it works")
            .subcommand_required(true)
            .subcommand(Command::new("status").about("Verify the key (a balance read): key source, base URL, tier, balance")),
    )
}

/// A noun of the command tree: nouns under it (`brand-kit section`) and its operations' subcommands.
struct Noun {
    name: &'static str,
    nouns: Vec<Noun>,
    verbs: Vec<Command>,
    /// An operation whose path is this one word (`archive <asset-type> <id>`).
    operation: Option<Command>,
}

impl Noun {
    fn command(self) -> Command {
        if let Some(c) = self.operation {
            return c;
        }
        let mut c = Command::new(self.name).subcommand_required(true).arg_required_else_help(true);
        if let Some(about) = contentdesk_ops::noun_about(self.name) {
            c = c.about(about);
        }
        c.subcommands(self.nouns.into_iter().map(Noun::command)).subcommands(self.verbs)
    }
}

/// Puts an operation's subcommand under its nouns.
fn add(nouns: &mut Vec<Noun>, path: &'static [&'static str], e: &Entry) {
    let [noun, rest @ ..] = path else { return };
    let pos = nouns.iter().position(|n| n.name == *noun).unwrap_or_else(|| {
        nouns.push(Noun { name: noun, nouns: Vec::new(), verbs: Vec::new(), operation: None });
        nouns.len() - 1
    });
    let command = if e.makes_document() { output::with_output_flag(e.command()) } else { e.command() };
    if rest.is_empty() {
        nouns[pos].operation = Some(command);
    } else if rest.len() == 1 {
        nouns[pos].verbs.push(command);
    } else {
        add(&mut nouns[pos].nouns, rest, e);
    }
}

/// The chain of subcommand names down to the leaf, and the leaf's matches.
fn leaf(m: &ArgMatches) -> (Vec<String>, &ArgMatches) {
    let mut path = Vec::new();
    let mut at = m;
    while let Some((name, sub)) = at.subcommand() {
        path.push(name.to_string());
        at = sub;
    }
    (path, at)
}

fn main() -> ExitCode {
    // Before any thread: the time zone is read safely only then (local times in --human).
    output::read_local_offset();
    let matches = match cli().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            // --help and --version print and succeed; a usage error is exit 2 (clap's own message).
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let format = Format::choose(matches.get_flag("json"), matches.get_flag("human"));
    let (path, sub) = leaf(&matches);
    let path_refs: Vec<&str> = path.iter().map(String::as_str).collect();
    if path_refs.first() != Some(&"mcp") {
        // A date alone means 00:00 this computer's time (agents' dates stay UTC).
        contentdesk_ops::dates_in_local_time(output::offset_at);
    }
    let result = match path_refs.as_slice() {
        ["schema"] => schema(sub),
        ["completions"] => {
            let shell = *sub.get_one::<clap_complete::Shell>("shell").expect("required");
            clap_complete::generate(shell, &mut cli(), "cdesk", &mut std::io::stdout());
            return ExitCode::SUCCESS;
        }
        ["__man"] => man_pages(sub.get_one::<std::path::PathBuf>("dir").expect("required")),
        ["mcp"] => match selection(sub) {
            Err(e) => Err(e),
            Ok(selection) if sub.get_flag("list-tools") => Ok(mcp::tool_table(&selection)),
            Ok(selection) if sub.contains_id("http") => return serve_mcp_http(&matches, sub, selection),
            Ok(selection) => return serve_mcp(&matches, selection, sub.get_one::<f64>("confirm-spend-over").copied()),
        },
        ["login"] if sub.value_source("with-key").is_some() => {
            runtime().and_then(|rt| rt.block_on(login::login(&given(&matches), sub.get_one::<String>("with-key"), sub.get_flag("file"))))
        }
        ["login"] => runtime().and_then(|rt| rt.block_on(login::browser_login(&given(&matches), sub.get_flag("file")))),
        ["logout"] => login::logout(&given(&matches)),
        ["backup", "create"] => match backup::create(sub) {
            Ok(None) => return ExitCode::SUCCESS,
            Ok(Some(v)) => Ok(v),
            Err(e) => Err(e),
        },
        ["backup", "restore"] => backup::restore(sub),
        ["version"] => return version(sub.get_flag("check"), format),
        ["auth", "status"] => match runtime().and_then(|rt| rt.block_on(auth_status(&matches))) {
            // No key: the status on stdout (where it would be looked for), what to do on stderr, exit 3
            // as the exit codes say.
            Ok(status) if status["authenticated"] == json!(false) => {
                output::print(&status, format);
                let name = status.get("profile").and_then(Value::as_str);
                let err = OpError::Auth(name.map_or_else(|| "no API key: run `cdesk login`, pass --api-key or set CONTENTHERO_API_KEY".into(), keys::no_key));
                let err_format = if std::io::stderr().is_terminal() && format == Format::Human { Format::Human } else { Format::Json };
                output::print_error(&err.to_json(), err_format);
                return ExitCode::from(err.exit_code());
            }
            other => other,
        },
        _ => match contentdesk_ops::by_path(&path_refs) {
            Some(entry) => {
                let mut human = output::Human::here(matches.get_flag("wide"), Some(entry.meta.tool));
                let names = (format == Format::Human).then_some(&mut human.names);
                let result = runtime().and_then(|rt| rt.block_on(run(entry, &matches, sub, names, format == Format::Json)));
                match result {
                    // A document (a calendar file) goes out raw, whatever the format flags say.
                    Ok(value) if entry.makes_document() => {
                        let talk = std::io::stderr().is_terminal() || matches.get_flag("verbose");
                        match entry.document(&value).ok_or_else(|| OpError::Internal("the reply holds no document".into())).and_then(|doc| output::document(&doc, &value, sub, talk)) {
                            Ok(()) => return ExitCode::SUCCESS,
                            Err(e) => Err(e),
                        }
                    }
                    Ok(value) if format == Format::Json && !matches.get_flag("envelope") => {
                        let code = entry.exit_code(&value);
                        say_exit(code, format);
                        let printed = entry.printed(value);
                        output::print(&printed.data, format);
                        if let Some(paging) = printed.paging {
                            if std::io::stderr().is_terminal() || matches.get_flag("verbose") {
                                eprintln!("{}", output::more_note(&paging, &printed.data));
                            }
                        }
                        return ExitCode::from(code);
                    }
                    Ok(value) => {
                        let code = entry.exit_code(&value);
                        say_exit(code, format);
                        output::print_as(&contentdesk_ops::js_numbers(value), format, &human);
                        return ExitCode::from(code);
                    }
                    other => other,
                }
            }
            None => Err(OpError::Usage { message: format!("unknown command `{}`", path.join(" ")), field: None }),
        },
    };
    match result {
        Ok(value) => {
            output::print(&value, format);
            ExitCode::SUCCESS
        }
        Err(e) => {
            // A render not finished in time still names its outputId on stdout, for scripts.
            if let OpError::NotFinished { output_id, status, .. } = &e {
                output::print(&json!({ "outputId": output_id, "status": status }), format);
            }
            let err_format = if std::io::stderr().is_terminal() && format == Format::Human { Format::Human } else { Format::Json };
            output::print_error(&e.to_json(), err_format);
            ExitCode::from(e.exit_code())
        }
    }
}

/// A reply that came back with a non-zero exit (every post of a publish failed) says so on stderr, as
/// an error does; a card check's findings (exit 6) speak for themselves.
fn say_exit(code: u8, format: Format) {
    if code == 1 {
        let err_format = if std::io::stderr().is_terminal() && format == Format::Human { Format::Human } else { Format::Json };
        output::print_error(&json!({ "error": "nothing was published: every post failed (each one's error is in results)", "exitCode": 1 }), err_format);
    }
}

/// `cdesk version [--check]`: the version, or the update check the app's Settings runs (core::update), as
/// JSON when piped and a sentence at a terminal; exit 1 when the check could not answer.
fn version(check: bool, format: Format) -> ExitCode {
    use contentdesk_core::update as u;
    let current = env!("CARGO_PKG_VERSION");
    if !check {
        match format {
            Format::Json => output::print(&json!({ "version": current }), format),
            Format::Human => println!("cdesk {current}"),
        }
        return ExitCode::SUCCESS;
    }
    let result = match runtime() {
        Ok(rt) => rt.block_on(u::check(&u::endpoint(), current, u::PUBLIC_KEY, u::CHECK_TIMEOUT)),
        Err(e) => Err(u::UpdateError::Unreachable(e.to_string())),
    };
    // cdesk installs nothing: a version waiting for a manual install is the app's to show.
    let status = u::UpdateStatus::from_check(current, &result, &u::UpdatePrefs::default());
    match format {
        Format::Json => output::print(&serde_json::to_value(&status).unwrap_or_default(), format),
        Format::Human => println!("{}", status.human()),
    }
    match &result {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            if format == Format::Human {
                eprintln!("({})", e.detail());
            }
            ExitCode::from(1)
        }
    }
}

/// `--toolsets` as help: each toolset and what it holds.
fn toolsets_help() -> String {
    let sets: Vec<String> = contentdesk_ops::Toolset::ALL.iter().map(|t| format!("{} ({})", t.name(), t.about())).collect();
    format!("Serve only these toolsets, comma-separated (default: all): {}", sets.join("; "))
}

/// The tools `cdesk mcp` offers, from `--toolsets` and `--read-only` (an unknown toolset: exit 2).
fn selection(sub: &ArgMatches) -> Result<contentdesk_ops::Selection, OpError> {
    contentdesk_ops::Selection::parse(sub.get_one::<String>("toolsets").map(String::as_str), sub.get_flag("read-only"))
        .map_err(|message| OpError::Usage { message, field: Some("toolsets".into()) })
}

/// `cdesk __man DIR`: `cdesk.1` (every command group, the key ladder, the exit codes) and one page per
/// command group (`cdesk-card.1`: its commands), as the packages install them in /usr/share/man/man1.
fn man_pages(dir: &std::path::Path) -> Result<Value, OpError> {
    let fail = |e: std::io::Error| OpError::Usage { message: format!("cannot write the man pages into {}: {e}", dir.display()), field: None };
    std::fs::create_dir_all(dir).map_err(fail)?;
    let mut root = cli();
    root.build();
    let mut written = Vec::new();
    let mut write = |name: String, cmd: Command| -> Result<(), OpError> {
        let mut page = Vec::new();
        clap_mangen::Man::new(cmd).title(name.to_uppercase()).source(format!("cdesk {}", env!("CARGO_PKG_VERSION"))).manual("Content Desk")
            .render(&mut page).map_err(fail)?;
        std::fs::write(dir.join(format!("{name}.1")), page).map_err(fail)?;
        written.push(format!("{name}.1"));
        Ok(())
    };
    let groups: Vec<Command> = root.get_subcommands().filter(|c| !c.is_hide_set() && c.get_name() != "help").cloned().collect();
    write("cdesk".into(), root.clone())?;
    for group in groups {
        let name = format!("cdesk-{}", group.get_name());
        let bin_name = format!("cdesk {}", group.get_name());
        write(name.clone(), group.name(name).bin_name(bin_name))?;
    }
    Ok(json!({ "dir": dir.display().to_string(), "pages": written }))
}

/// `cdesk mcp`: no key is a message on stderr and exit 3 at start, before the protocol begins.
fn serve_mcp(m: &ArgMatches, selection: contentdesk_ops::Selection, confirm_over: Option<f64>) -> ExitCode {
    // One thread: an agent's calls are few and I/O-bound; handing them between threads costs more.
    let rt = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("cdesk mcp: cannot start: {e}");
            return ExitCode::from(1);
        }
    };
    rt.block_on(async {
        // `_local`: the local sandbox this session serves or its key, kept until the session ends.
        let (client, _, _local) = match client(m).await {
            Ok(c) => c,
            Err(e) => {
                eprintln!("cdesk mcp: {e}");
                return ExitCode::from(e.exit_code());
            }
        };
        match mcp::serve(client, selection, confirm_over).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("cdesk mcp: {e}");
                ExitCode::from(1)
            }
        }
    })
}

/// `cdesk mcp --http`: no key; the issuer from `--issuer` or the base URL (`--base-url`,
/// `CONTENTHERO_BASE_URL`, the profile's).
fn serve_mcp_http(m: &ArgMatches, sub: &ArgMatches, selection: contentdesk_ops::Selection) -> ExitCode {
    // Each client acts with its own OAuth grant: a key given here would be a mistake, never used.
    if m.get_one::<String>("api-key").is_some() || sub.get_one::<String>("api-key").is_some() {
        eprintln!("cdesk mcp --http: takes no API key (each client signs in by OAuth and acts with its own grant); drop --api-key");
        return ExitCode::from(2);
    }
    if std::env::var_os("CONTENTHERO_API_KEY").is_some() {
        eprintln!("cdesk mcp --http: CONTENTHERO_API_KEY is set and not used (each client acts with its own OAuth grant)");
    }
    let options = mcp_http::Options {
        addr: sub.get_one::<String>("http").cloned().unwrap_or_default(),
        issuer: sub.get_one::<String>("issuer").cloned(),
        public_url: sub.get_one::<String>("public-url").cloned(),
        base_url: keys::explicit_base_url(&given(m)).or_else(|| {
            // A profile's base URL, when one is named or selected (the key itself is not used).
            keys::resolve(&given(m)).ok().filter(|r| r.profile.is_some()).map(|r| r.base_url)
        }),
        selection,
        allowed_origins: sub.get_many::<String>("allow-origin").map(|v| v.cloned().collect()).unwrap_or_default(),
        confirm_over: sub.get_one::<f64>("confirm-spend-over").copied(),
    };
    let result = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}")).and_then(|rt| rt.block_on(mcp_http::serve(options)));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cdesk mcp --http: {e}");
            ExitCode::from(1)
        }
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, OpError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| OpError::Internal(format!("cannot start: {e}")))
}

fn given(m: &ArgMatches) -> keys::Given {
    keys::Given {
        api_key: m.get_one::<String>("api-key").cloned(),
        base_url: m.get_one::<String>("base-url").cloned(),
        profile: m.get_one::<String>("profile").cloned(),
        sandbox: m.get_flag("sandbox"),
    }
}

/// A client from the ladder, or exit 3 saying what to set. With the local sandbox, what reaches it
/// (a server of this process, a minted key), to keep until the command ends.
async fn client(m: &ArgMatches) -> Result<(api_client::Client, keys::Resolved, Option<local::Local>), OpError> {
    let (resolved, local) = resolve(m).await?;
    keys::note_queue_place(&resolved, m.get_one::<String>("profile").map(String::as_str));
    let client = build_client(m, &resolved)?;
    Ok((client, resolved, local))
}

/// The client for what the ladder found, or exit 3 saying what to set.
fn build_client(m: &ArgMatches, resolved: &keys::Resolved) -> Result<api_client::Client, OpError> {
    let Some(key) = resolved.key.clone() else {
        return Err(OpError::Auth(match &resolved.profile {
            Some(name) => keys::no_key(name),
            None => "no API key: run `cdesk login`, pass --api-key, set CONTENTHERO_API_KEY, add a key to a Content Desk profile, or put it in ~/.contenthero/credentials (mode 0600)".into(),
        }));
    };
    let talk = std::io::stderr().is_terminal() || m.get_flag("verbose");
    let mut builder = api_client::Client::builder(api_client::ApiKey::new(key)).base_url(&resolved.base_url);
    if talk {
        // Waiting is said, never silent: a 429 names its wait, a failure its retry.
        builder = builder.on_retry(Arc::new(|n: &api_client::RetryNotice| {
            let secs = n.wait.as_secs_f64();
            match n.status {
                Some(429) => eprintln!("rate limited by the service: waiting {secs:.1} s, then trying again"),
                Some(s) => eprintln!("the service answered {s}: trying again in {secs:.1} s"),
                None => eprintln!("no answer from the service: trying again in {secs:.1} s"),
            }
        }));
    }
    builder.build().map_err(OpError::from)
}

/// The ladder, then the local sandbox when it is the one asked for (its key and URL filled in).
async fn resolve(m: &ArgMatches) -> Result<(keys::Resolved, Option<local::Local>), OpError> {
    let mut resolved = keys::resolve(&given(m)).map_err(OpError::Auth)?;
    let Some(target) = resolved.local.clone() else { return Ok((resolved, None)) };
    let talk = std::io::stderr().is_terminal() || m.get_flag("verbose");
    let local = local::open(&target, talk).await.map_err(OpError::Internal)?;
    resolved.key = Some(local.key.to_string());
    resolved.base_url = local.base_url.clone();
    resolved.source = local.source;
    Ok((resolved, Some(local)))
}

/// Runs an operation; with `names` (a person reads the reply), the names of the stages its cards are in.
/// `json`: the output is JSON, so reads print the reply as the service sent it, as the official CLI does
/// (`Cx::as_sent`); a terminal's tables read the typed record.
async fn run(
    entry: &Entry,
    global: &ArgMatches,
    sub: &ArgMatches,
    names: Option<&mut std::collections::HashMap<String, String>>,
    json: bool,
) -> Result<Value, OpError> {
    let (client, _, _local) = client(global).await?;
    let names_client = client.clone();
    let line = progress::Line::new(std::io::stderr().is_terminal(), global.get_flag("verbose")).map(Arc::new);
    let mut cx = Cx::new(client);
    cx.as_sent = json;
    cx.queue = keys::queue_place();
    if let Some(l) = &line {
        cx.progress = l.clone();
    }
    let fut = entry.run_matches(cx, sub).map_err(|e| OpError::Usage { message: e.to_string(), field: None })?;
    let result = fut.await;
    if let Some(l) = &line {
        l.finish();
    }
    if let (Ok(value), Some(names)) = (&result, names) {
        stage_names(&names_client, value, names).await;
    }
    result
}

/// The stages named by a reply's cards (`stageId`), read from their space; nothing when the reply holds
/// no card or the read fails (the table then shows no stage column).
async fn stage_names(client: &api_client::Client, value: &Value, names: &mut std::collections::HashMap<String, String>) {
    let cards: Vec<&Value> = match value.get("cards").and_then(Value::as_array) {
        Some(list) => list.iter().collect(),
        None => vec![value],
    };
    let Some(first) = cards.iter().find(|c| c.get("stageId").is_some_and(Value::is_string)) else { return };
    let space = first.get("spaceId").and_then(Value::as_str).or_else(|| value.get("space").and_then(|s| s.get("id")).and_then(Value::as_str));
    if let Ok(list) = client.stages().list(space).await {
        names.extend(list.stages.into_iter().map(|s| (s.id, s.name)));
    }
}

async fn auth_status(m: &ArgMatches) -> Result<Value, OpError> {
    let (resolved, _local) = resolve(m).await?;
    let mut status = json!({
        "authenticated": false,
        "keySource": resolved.source,
        // As the client uses it: a host alone has `/api/v1` added.
        "baseUrl": api_client::api_base(&resolved.base_url),
    });
    if let Some(p) = &resolved.profile {
        status["profile"] = json!(p);
    }
    if let Some(l) = &_local {
        status["localSandbox"] = json!(if l.via_app { "the app's" } else { "served by cdesk for this command" });
    }
    if resolved.key.is_none() {
        return Ok(status);
    }
    let client = build_client(m, &resolved)?;
    let balance = client.account().balance().await?;
    status["authenticated"] = json!(true);
    status["tier"] = json!(balance.tier);
    status["balance"] = json!(balance.balance);
    Ok(status)
}

/// `schema card update`: that operation's input schema with its description; no command: every one.
fn schema(m: &ArgMatches) -> Result<Value, OpError> {
    let words: Vec<&str> = m.get_many::<String>("command").map(|v| v.map(String::as_str).collect()).unwrap_or_default();
    let describe = |e: &Entry| {
        json!({
            "command": e.meta.command(),
            "tool": e.meta.tool,
            "summary": e.meta.summary,
            "effect": e.meta.effect,
            "idempotent": e.meta.idempotent,
            "scope": e.meta.scope,
            "input": e.input_schema(),
        })
    };
    if words.is_empty() {
        return Ok(Value::Array(catalogue().iter().map(describe).collect()));
    }
    let found: Vec<Value> = catalogue().iter().filter(|e| e.meta.path.starts_with(&words)).map(describe).collect();
    match found.len() {
        0 => Err(OpError::Usage { message: format!("no command `{}`: `cdesk schema` lists them all", words.join(" ")), field: None }),
        1 => Ok(found.into_iter().next().expect("one")),
        _ => Ok(Value::Array(found)),
    }
}
