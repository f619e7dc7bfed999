//! TLS and mutual TLS, with certificates generated for each run by rcgen: a
//! round trip over TLS, a plaintext client refused, mTLS refusing clients without
//! a certificate (or with one from another CA), and the `health` command over mTLS.

mod common;

use std::process::Command;

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};
use sudokud::client::{ClientTls, Target};
use sudokud::pb::SolveRequest;
use sudokud::pb::sudoku_service_client::SudokuServiceClient;
use sudokud::server::{Tls, Transport};
use sudokud::service::Limits;

/// A certificate authority that signs server and client certificates.
struct Authority {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

/// A certificate and its key, PEM-encoded.
struct Pem {
    certificate: String,
    key: String,
}

impl Authority {
    fn new(name: &str) -> Self {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        let issuer = CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap();
        Authority { issuer }
    }

    fn certificate(&self) -> String {
        self.issuer.pem()
    }

    /// A leaf certificate for `names` (DNS names or IP addresses).
    fn sign(&self, names: &[&str]) -> Pem {
        let params =
            CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>())
                .unwrap();
        let key = KeyPair::generate().unwrap();
        let certificate = params.signed_by(&key, &self.issuer).unwrap();
        Pem {
            certificate: certificate.pem(),
            key: key.serialize_pem(),
        }
    }
}

fn tls_transport(server: &Pem, client_ca: Option<&Authority>) -> Transport {
    Transport {
        tls: Some(Tls {
            certificate_chain: server.certificate.clone().into_bytes(),
            private_key: server.key.clone().into_bytes(),
            client_ca: client_ca.map(|ca| ca.certificate().into_bytes()),
        }),
        ..Transport::default()
    }
}

/// A server for `localhost` signed by one CA that requires client certificates
/// from another: (server CA, client CA, server).
async fn start_mutual_tls() -> (Authority, Authority, common::server::TestServer) {
    let ca = Authority::new("sudokud test CA");
    let server_pem = ca.sign(&["localhost"]);
    let clients = Authority::new("client CA");
    let server = common::server::start_with_transport(
        Limits::default(),
        tls_transport(&server_pem, Some(&clients)),
    )
    .await;
    (ca, clients, server)
}

fn target(address: std::net::SocketAddr, ca: &Authority, identity: Option<&Pem>) -> Target {
    Target {
        address: address.to_string(),
        tls: Some(ClientTls {
            ca: ca.certificate().into_bytes(),
            domain: Some("localhost".to_owned()),
            identity: identity.map(|pem| {
                (
                    pem.certificate.clone().into_bytes(),
                    pem.key.clone().into_bytes(),
                )
            }),
        }),
        bearer_token: None,
    }
}

fn puzzle() -> String {
    common::puzzles("euler96_50.txt")[0].clone()
}

/// Connects and makes one Solve call; any failure (handshake or call) is an error.
async fn solve_over(target: &Target) -> Result<String, String> {
    let channel = target
        .connect(Some(std::time::Duration::from_secs(10)))
        .await
        .map_err(|error| error.to_string())?;
    let response = SudokuServiceClient::new(channel)
        .solve(SolveRequest {
            puzzle: puzzle(),
            ..Default::default()
        })
        .await
        .map_err(|status| format!("{:?}: {}", status.code(), status.message()))?;
    Ok(response.into_inner().solution)
}

#[tokio::test]
async fn tls_round_trip_and_plaintext_is_refused() {
    let ca = Authority::new("sudokud test CA");
    let server_pem = ca.sign(&["localhost", "127.0.0.1"]);
    let server =
        common::server::start_with_transport(Limits::default(), tls_transport(&server_pem, None))
            .await;

    let solution = solve_over(&target(server.address, &ca, None))
        .await
        .unwrap();
    assert!(common::is_solution(&puzzle(), &solution), "{solution}");

    // The same server without TLS on the client side: no call gets through.
    let plaintext = Target {
        address: server.address.to_string(),
        ..Target::default()
    };
    assert!(solve_over(&plaintext).await.is_err());

    // A client that trusts another CA refuses the server's certificate.
    let stranger = Authority::new("another CA");
    let refused = solve_over(&target(server.address, &stranger, None))
        .await
        .unwrap_err();
    assert!(refused.contains("certificate"), "{refused}");
}

#[tokio::test]
async fn mutual_tls_requires_a_client_certificate_from_the_trusted_ca() {
    let (ca, clients, server) = start_mutual_tls().await;

    let trusted = clients.sign(&["client.example"]);
    let solution = solve_over(&target(server.address, &ca, Some(&trusted)))
        .await
        .unwrap();
    assert!(common::is_solution(&puzzle(), &solution));

    assert!(
        solve_over(&target(server.address, &ca, None))
            .await
            .is_err(),
        "a client without a certificate got through"
    );
    let untrusted = ca.sign(&["client.example"]);
    assert!(
        solve_over(&target(server.address, &ca, Some(&untrusted)))
            .await
            .is_err(),
        "a certificate from a CA the server does not trust got through"
    );
}

#[tokio::test]
async fn the_health_command_speaks_mutual_tls() {
    let (ca, clients, server) = start_mutual_tls().await;
    let client_pem = clients.sign(&["probe"]);
    let dir = std::env::temp_dir().join(format!("sudokud-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    let ca_file = write("ca.pem", &ca.certificate());
    let cert_file = write("client.pem", &client_pem.certificate);
    let key_file = write("client.key", &client_pem.key);
    let address = server.address.to_string();
    let probe = move |with_identity: bool| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_sudokud"));
        command.args([
            "health",
            "--addr",
            &address,
            "--tls-ca",
            &ca_file,
            "--tls-domain",
            "localhost",
            "--timeout",
            "5",
        ]);
        if with_identity {
            command.args(["--tls-cert", &cert_file, "--tls-key", &key_file]);
        }
        command.output().unwrap()
    };
    let (with, without) = tokio::task::spawn_blocking(move || (probe(true), probe(false)))
        .await
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(with.status.success(), "{with:?}");
    assert!(String::from_utf8_lossy(&with.stdout).contains("SERVING"));
    assert!(!without.status.success(), "{without:?}");
}
