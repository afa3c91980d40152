//! An echo upstream for trying the gateway: `cargo run -p jitson-gateway --example
//! echo_upstream [ADDR]` (default 127.0.0.1:9000) answers every request with its own body.

use jitson_gateway::echo::Echo;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:9000".to_string());
    let addr = addr
        .parse()
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    let echo = Echo::start(addr).await?;
    eprintln!("echo upstream on http://{}", echo.addr);
    tokio::signal::ctrl_c().await?;
    Ok(())
}
