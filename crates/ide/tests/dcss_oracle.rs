//! The same verdict as crawl 0.28.0 on every probe of `dcss-0.28.0/oracle-cases`, each probe
//! analysed with the whole corpus beside it, as crawl compiled it (so a clash with a corpus
//! vault's name counts). `test-data/dcss-des/oracle-verdicts.txt` records, per probe, crawl's
//! verdict and line and levkit's first error, and says where crawl reports a problem later
//! than the line that causes it.

use std::path::{Path, PathBuf};

use levkit_diagnostics::Severity;
use levkit_ide::AnalysisHost;

fn des_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            des_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "des") {
            out.push(path);
        }
    }
}

/// crawl's line from the last line of a case's stderr (`des/zz_oracle_test.des:N: message`).
fn crawl_line(stderr: &str) -> Option<(u32, String)> {
    let last = stderr.lines().rev().find(|l| !l.is_empty())?;
    let rest = last.strip_prefix("des/zz_oracle_test.des:")?;
    let (line, message) = rest.split_once(": ")?;
    Some((line.parse().ok()?, message.to_string()))
}

#[test]
fn every_oracle_case_gets_crawls_verdict() {
    let Some(corpus) = levkit_test_support::corpus("dcss-0.28.0", "DCSS oracle cases") else {
        return;
    };
    let mut host = AnalysisHost::new();
    let mut files = Vec::new();
    des_files(&corpus.join("des"), &mut files);
    for path in &files {
        let relative = path.strip_prefix(&corpus).unwrap().to_path_buf();
        host.set_file_bytes(relative, &std::fs::read(path).unwrap());
    }
    let cases_dir = corpus.join("oracle-cases");
    let mut cases: Vec<String> = std::fs::read_dir(&cases_dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".des").map(str::to_string)
        })
        .collect();
    cases.sort();
    assert_eq!(cases.len(), 124);
    let case_path = PathBuf::from("des/zz_oracle_test.des");
    let mut report = String::new();
    let mut wrong = Vec::new();
    for case in &cases {
        let bytes = std::fs::read(cases_dir.join(format!("{case}.des"))).unwrap();
        let file = host.set_file_bytes(case_path.clone(), &bytes);
        let analysis = host.analysis();
        let index = analysis.line_index(file).unwrap();
        let errors: Vec<_> = analysis
            .diagnostics(file)
            .unwrap()
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        let exit = std::fs::read_to_string(cases_dir.join(format!("{case}.exit"))).unwrap();
        let crawl_rejects = exit.trim() == "1";
        let stderr = std::fs::read_to_string(cases_dir.join(format!("{case}.stderr"))).unwrap();
        let ours = errors
            .first()
            .map(|d| (index.line_col(d.range.start()).line + 1, d.code.to_string()));
        let line = match (crawl_line(&stderr), &ours) {
            (Some((crawl, message)), Some((line, code))) => {
                let late = if crawl != *line {
                    format!(" (crawl reports it at line {crawl}, where it notices)")
                } else {
                    String::new()
                };
                format!(
                    "rejected: crawl line {crawl} \"{message}\"; levkit {code} at line {line}{late}"
                )
            }
            (None, None) => "accepted by both".to_string(),
            (Some((crawl, message)), None) => {
                format!("crawl rejects at line {crawl} \"{message}\"; levkit accepts")
            }
            (None, Some((line, code))) => format!("crawl accepts; levkit {code} at line {line}"),
        };
        report.push_str(&format!("{case}: {line}\n"));
        if crawl_rejects == errors.is_empty() {
            wrong.push(format!("{case}: {line}"));
        }
    }
    expect_test::expect_file![
        levkit_test_support::test_data().join("dcss-des/oracle-verdicts.txt")
    ]
    .assert_eq(&report);
    assert!(
        wrong.is_empty(),
        "verdicts that differ from crawl's:\n{}",
        wrong.join("\n")
    );
}
