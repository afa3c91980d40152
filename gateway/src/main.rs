//! The `jitson-gateway` command: `jitson-gateway CONFIG.toml` serves until interrupted.

use std::path::PathBuf;
use std::process::ExitCode;

use jitson_gateway::{Config, Gateway};

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [config] = args.as_slice() else {
        eprintln!("usage: jitson-gateway CONFIG.toml");
        return ExitCode::from(2);
    };
    let config = match Config::load(&PathBuf::from(config)) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("jitson-gateway: {e}");
            return ExitCode::from(2);
        }
    };
    let gateway = match Gateway::start(config).await {
        Ok(gateway) => gateway,
        Err(e) => {
            eprintln!("jitson-gateway: cannot start: {e}");
            return ExitCode::from(1);
        }
    };
    eprintln!(
        "jitson-gateway: listening on http://{}",
        gateway.local_addr()
    );
    let _ = tokio::signal::ctrl_c().await;
    gateway.shutdown().await;
    ExitCode::SUCCESS
}
