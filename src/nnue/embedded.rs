//! The network built into the binary, and whether the engine evaluates with it by default.

use std::sync::{Arc, OnceLock};

use super::net::Network;

/// The embedded network's file in `nets/`, written once: `include_bytes!` needs a literal, so
/// the name is a macro that both the constant and the inclusion expand.
macro_rules! embedded_net_file {
    () => {
        "nw-g19.nnue"
    };
}

/// File name of the embedded network (the `EvalFile` default; `nets/` in the repository).
pub const EMBEDDED_NET_NAME: &str = embedded_net_file!();

/// Whether `UseNNUE` is on by default (and `bench`, data generation and the default search
/// options evaluate with the embedded network).
pub const USE_BY_DEFAULT: bool = true;

static EMBEDDED_BYTES: &[u8] = include_bytes!(concat!("../../nets/", embedded_net_file!()));

/// The embedded network, parsed once; `None` if it does not parse (a test guards that).
pub fn embedded_net() -> Option<Arc<Network>> {
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NET.get_or_init(|| Network::from_bytes(EMBEDDED_BYTES).ok().map(Arc::new))
        .clone()
}

/// The network of the engine's default settings: the embedded one when [`USE_BY_DEFAULT`],
/// else `None` (the hand-crafted evaluation).
pub fn default_net() -> Option<Arc<Network>> {
    if USE_BY_DEFAULT { embedded_net() } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_network_parses() {
        let net = embedded_net().expect("the embedded network must parse");
        assert!(net.hidden >= 16);
    }
}
