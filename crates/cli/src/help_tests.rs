//! The whole command tree's help (issue 26 point 9): every command says what it does and every
//! argument and option has help, the catalogue's and cdesk's own (schema, mcp, login, backup, …) alike.
use super::cli;

fn walk(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
    if command.is_hide_set() {
        return;
    }
    if command.get_about().is_none_or(|a| a.to_string().trim().is_empty()) {
        missing.push(format!("{path}: no about"));
    }
    for a in command.get_arguments() {
        let builtin = ["help", "version"].contains(&a.get_id().as_str());
        let help = a.get_help().or(a.get_long_help()).map(ToString::to_string).unwrap_or_default();
        if !builtin && !a.is_hide_set() && help.trim().is_empty() {
            missing.push(format!("{path} {}", a.get_id()));
        }
    }
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        walk(sub, &format!("{path} {}", sub.get_name()), missing);
    }
}

#[test]
fn every_command_argument_and_option_has_help() {
    let mut command = cli();
    command.build();
    let mut missing = Vec::new();
    walk(&command, "cdesk", &mut missing);
    assert!(missing.is_empty(), "{} without help:\n{}", missing.len(), missing.join("\n"));
}
