fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("sss")
        && let Err(e) = nullwindow::lab::cli::run_sss_cli(&args[1..])
    {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}
