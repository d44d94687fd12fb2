//! What the protocol library leaves to us: an answer to every request, and an honest exit.
//!
//! tower-lsp-server drops the "method not found" answer of any method starting with `$/`,
//! requests included, so a client waiting for one waits forever; [`Answering`] puts the
//! error back for requests. The library also returns the same way whether the client said
//! `exit`, closed the stream or sent bytes it could not decode; [`Session`] tells them apart
//! so that `levkit lsp` exits as the specification says (0 after `shutdown` then `exit`, 1
//! otherwise) and says why on standard error.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};
use tower_lsp_server::jsonrpc::{Error, Request, Response};
use tower_service::Service;

/// What happened during a session, as far as the exit status is concerned.
#[derive(Debug, Default)]
pub struct Session {
    shutdown: AtomicBool,
    exit: AtomicBool,
    end_of_input: AtomicBool,
}

impl Session {
    /// The process's exit status and, when it is not 0, why.
    pub fn outcome(&self) -> (u8, Option<&'static str>) {
        let shutdown = self.shutdown.load(Ordering::SeqCst);
        if self.exit.load(Ordering::SeqCst) {
            return if shutdown {
                (0, None)
            } else {
                (1, Some("the client sent `exit` without `shutdown` first"))
            };
        }
        if self.end_of_input.load(Ordering::SeqCst) {
            (1, Some("the client closed the connection without `exit`"))
        } else {
            (
                1,
                Some(
                    "the client sent a message that is not framed as LSP expects (a header without Content-Length, or a wrong length); the stream cannot be read past it",
                ),
            )
        }
    }
}

/// The language service, answering unknown `$/` requests and noting `shutdown` and `exit`.
pub struct Answering<S> {
    pub inner: S,
    pub session: Arc<Session>,
}

impl<S> Service<Request> for Answering<S>
where
    S: Service<Request, Response = Option<Response>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = Option<Response>;
    type Error = S::Error;
    type Future =
        Pin<Box<dyn std::future::Future<Output = Result<Option<Response>, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        match request.method() {
            "shutdown" => self.session.shutdown.store(true, Ordering::SeqCst),
            "exit" => self.session.exit.store(true, Ordering::SeqCst),
            _ => {}
        }
        let unanswered = request
            .method()
            .starts_with("$/")
            .then(|| request.id().cloned());
        let method = request.method().to_string();
        let future = self.inner.call(request);
        Box::pin(async move {
            let response = future.await?;
            Ok(match (response, unanswered) {
                (None, Some(Some(id))) => Some(Response::from_error(
                    id,
                    Error {
                        data: Some(method.into()),
                        ..Error::method_not_found()
                    },
                )),
                (response, _) => response,
            })
        })
    }
}

/// The client's input, noting when it ends.
pub struct Input<R> {
    pub inner: R,
    pub session: Arc<Session>,
}

impl<R: AsyncRead + Unpin> AsyncRead for Input<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = polled
            && buf.filled().len() == before
            && buf.remaining() > 0
        {
            self.session.end_of_input.store(true, Ordering::SeqCst);
        }
        polled
    }
}
