//! agentctx: shows, byte for byte, the workspace instruction context a dsh
//! session receives, and explains why. See SPEC.md for the contract.
//!
//! The core (`discovery`, `render`, `baseline`, `log`, `logfile`,
//! `reconcile`, `prompt`, `sessions`, `check`, `profile`) returns data and
//! never prints; `cmd` and `output` present it. docs/ARCHITECTURE.md draws
//! the layers.

pub mod app;
pub mod baseline;
pub(crate) mod bounded;
pub mod check;
pub mod cli;
pub mod cmd;
pub mod discovery;
pub mod dshconfig;
pub mod env;
pub mod explain;
pub mod jsnum;
pub mod log;
pub mod logfile;
pub mod output;
pub mod paths;
pub mod profile;
pub mod prompt;
pub mod reconcile;
pub mod render;
pub mod sessions;
pub mod settings;
pub mod text;

pub use app::run;
