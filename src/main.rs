use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;

use agentctx::app::Cli;
use agentctx::env::Env;
use agentctx::output::PipeOut;

fn main() -> ExitCode {
    let cli = match Cli::parse_args(std::env::args_os().collect()) {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(PipeOut::new(stdout.lock()));
    let mut err = io::stderr();
    let env = Env::from_process();
    let result = agentctx::run(&cli, &env, &mut out, &mut err).and_then(|code| {
        out.flush()?;
        Ok(code)
    });
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            let _ = out.flush();
            fail(&format!("{e:#}"))
        }
    }
}

/// One escaped error line on stderr, exit 2.
fn fail(message: &str) -> ExitCode {
    let _ = writeln!(
        io::stderr(),
        "agentctx: {}",
        agentctx::output::escape(message)
    );
    ExitCode::from(2)
}

/// Help and version print as clap renders them (a closed pipe is no error,
/// a failed write is); a usage error becomes one escaped line (SPEC 1), exit 2.
fn usage_error(e: &clap::Error) -> ExitCode {
    // `agentctx` alone (or with only global flags): a short usage on
    // stderr, not the whole help.
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand
    ) {
        let _ = io::stderr().write_all(agentctx::app::short_usage().as_bytes());
        return ExitCode::from(2);
    }
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let mut out = PipeOut::new(io::stdout().lock());
        // Styled on a terminal, as clap itself would print it.
        let text = if io::stdout().is_terminal() {
            e.render().ansi().to_string()
        } else {
            e.render().to_string()
        };
        if let Err(err) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            return fail(&err.to_string());
        }
        return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
    }
    fail(&agentctx::output::usage_line(&e.render().to_string()))
}
