use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::Parser;

use agentctx::cli::Cli;
use agentctx::env::Env;

fn main() -> ExitCode {
    let cli = Cli::parse();
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

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<io::Error>())
        .any(|io| io.kind() == io::ErrorKind::BrokenPipe)
}
