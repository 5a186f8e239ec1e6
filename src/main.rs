use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

use agentctx::cli::Cli;
use agentctx::env::Env;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut err = io::stderr();
    let result = Env::from_process().and_then(|env| agentctx::run(&cli, &env, &mut out, &mut err));
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = out.flush();
            let _ = writeln!(
                err,
                "agentctx: {}",
                agentctx::output::escape(&format!("{e:#}"))
            );
            ExitCode::from(2)
        }
    }
}

/// Help and version print as clap renders them; a usage error becomes one
/// escaped line (SPEC 1), exit 2.
fn usage_error(e: &clap::Error) -> ExitCode {
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
    }
    let line = agentctx::output::usage_line(&e.render().to_string());
    let _ = writeln!(
        io::stderr(),
        "agentctx: {}",
        agentctx::output::escape(&line)
    );
    ExitCode::from(2)
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<io::Error>())
        .any(|io| io.kind() == io::ErrorKind::BrokenPipe)
}
