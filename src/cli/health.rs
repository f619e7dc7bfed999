//! `sudokud health`: asks a server's health service; exits 0 only on `SERVING`
//! (an exec probe).

use super::args::HealthArgs;
use super::config::seconds;
use super::runtime::{CliResult, Threads, runtime};

pub(super) fn run(args: HealthArgs) -> CliResult {
    use tonic_health::pb::health_check_response::ServingStatus;
    use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};

    let target = args.connect.target(None)?;
    let timeout = seconds(args.timeout);
    let status = runtime(Threads::One)?.block_on(async {
        let channel = target.connect(Some(timeout)).await?;
        let request = HealthCheckRequest {
            service: args.service.clone(),
        };
        let response = HealthClient::new(channel).check(request).await?;
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(response.into_inner().status())
    })?;
    let name = if args.service.is_empty() {
        "server"
    } else {
        args.service.as_str()
    };
    println!("{name}: {}", status.as_str_name());
    if status == ServingStatus::Serving {
        Ok(())
    } else {
        Err(format!("{name} is not serving").into())
    }
}
