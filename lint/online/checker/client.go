package checker

// The Filestore client: Application Default Credentials (read bounded,
// regular files only), the connection, and what its errors mean.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	filestore "cloud.google.com/go/filestore/apiv1"
	"github.com/googleapis/gax-go/v2/apierror"
	"github.com/slurmspec/slurmspec/lint/online"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// MaxCredentialsSize bounds a credentials file: a service account key is a
// few KiB.
const MaxCredentialsSize = 1 << 20

// credentialsFiles returns the files Application Default Credentials
// read: GOOGLE_APPLICATION_CREDENTIALS, then gcloud's well-known file.
func credentialsFiles() []string {
	var out []string
	if p := os.Getenv("GOOGLE_APPLICATION_CREDENTIALS"); p != "" {
		out = append(out, p)
	}
	dir := os.Getenv("CLOUDSDK_CONFIG")
	if dir == "" {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, ".config", "gcloud")
		}
	}
	if dir != "" {
		out = append(out, filepath.Join(dir, "application_default_credentials.json"))
	}
	return out
}

// checkCredentialsFiles refuses a credentials file that is not a regular
// file of at most MaxCredentialsSize before the Google client reads it
// whole: a FIFO would hang the read and /dev/zero would exhaust memory.
func checkCredentialsFiles() *online.Error {
	for _, p := range credentialsFiles() {
		st, err := os.Stat(p)
		if err != nil {
			continue // missing: the client reports it in its own words
		}
		switch {
		case !st.Mode().IsRegular():
			return online.Errorf(online.KindNoCredentials, fs.ErrInvalid,
				fmt.Sprintf("the credentials file %s is not a regular file (%s): %s", p, st.Mode().Type(), adcHint))
		case st.Size() > MaxCredentialsSize:
			return online.Errorf(online.KindNoCredentials, fs.ErrInvalid,
				fmt.Sprintf("the credentials file %s is larger than %d KiB, which no credentials file is: %s", p, MaxCredentialsSize>>10, adcHint))
		}
	}
	return nil
}

// newClient creates the Filestore client within the timeout: finding
// Application Default Credentials may probe the metadata server.
func newClient(ctx context.Context, opt Options) (*filestore.CloudFilestoreManagerClient, error) {
	if err := checkCredentialsFiles(); err != nil {
		return nil, err
	}
	type result struct {
		c   *filestore.CloudFilestoreManagerClient
		err error
	}
	ch := make(chan result, 1)
	go func() {
		c, err := filestore.NewCloudFilestoreManagerClient(ctx, opt.ClientOptions...)
		ch <- result{c, err}
	}()
	timer := time.NewTimer(opt.Timeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		if r.err != nil {
			return nil, classifySetup(r.err)
		}
		return r.c, nil
	case <-timer.C:
		go func() { // close the client if it ever arrives
			if r := <-ch; r.c != nil {
				_ = r.c.Close()
			}
		}()
		return nil, online.Errorf(online.KindTimeout, context.DeadlineExceeded, fmt.Sprintf(
			"setting up Google Cloud credentials took longer than %s: check the network, or run `gcloud auth application-default login`", opt.Timeout))
	case <-ctx.Done():
		return nil, online.Errorf(online.KindOther, ctx.Err(), "online check interrupted: "+ctx.Err().Error())
	}
}

const adcHint = "run `gcloud auth application-default login`, or set GOOGLE_APPLICATION_CREDENTIALS to a service account key file"

// classifySetup turns a client creation error into an *online.Error.
func classifySetup(err error) *online.Error {
	var pe *fs.PathError
	switch {
	case strings.Contains(err.Error(), "could not find default credentials"):
		return online.Errorf(online.KindNoCredentials, err, "no Google Cloud credentials found: "+adcHint)
	case errors.As(err, &pe), strings.Contains(strings.ToLower(err.Error()), "credentials"):
		return online.Errorf(online.KindNoCredentials, err, "cannot load Google Cloud credentials ("+err.Error()+"): "+adcHint)
	}
	return online.Errorf(online.KindOther, err, "cannot create the Filestore client: "+err.Error())
}

// classify turns a GetInstance error into an *online.Error with one line
// that says what happened and what to do.
func classify(err error, t *target, timeout time.Duration) *online.Error {
	code := status.Code(err)
	msg := err.Error()
	if st, ok := status.FromError(err); ok {
		msg = st.Message()
	}
	msg = online.OneLine(msg)
	reading := fmt.Sprintf("reading Filestore instance %s", t.name)
	switch {
	case errors.Is(err, context.DeadlineExceeded) || code == codes.DeadlineExceeded:
		return online.Errorf(online.KindTimeout, err, fmt.Sprintf(
			"the Filestore API did not answer within %s (%s): check the network, or raise the timeout (--online-timeout)", timeout, reading))
	case errors.Is(err, context.Canceled) || code == codes.Canceled:
		return online.Errorf(online.KindOther, err, "online check interrupted ("+reading+")")
	case strings.Contains(msg, "could not find default credentials"):
		return online.Errorf(online.KindNoCredentials, err, "no Google Cloud credentials found: "+adcHint)
	case code == codes.Unauthenticated:
		return online.Errorf(online.KindUnauthenticated, err, fmt.Sprintf(
			"Google Cloud rejected the credentials (%s: %s): they may have expired; run `gcloud auth application-default login`", reading, msg))
	case code == codes.PermissionDenied && reason(err) == "SERVICE_DISABLED":
		return online.Errorf(online.KindAPIDisabled, err, fmt.Sprintf(
			"the Filestore API is not enabled in project %s (%s): run `gcloud services enable file.googleapis.com --project %s`", t.project, reading, t.project))
	case code == codes.PermissionDenied:
		return online.Errorf(online.KindPermissionDenied, err, fmt.Sprintf(
			"permission denied %s (%s): the credentials need file.instances.get on project %s, e.g. role roles/file.viewer", reading, msg, t.project))
	case code == codes.ResourceExhausted:
		return online.Errorf(online.KindQuota, err, fmt.Sprintf(
			"Filestore API quota exhausted %s (%s): retry later, or raise the quota of file.googleapis.com for the credentials' quota project", reading, msg))
	case code == codes.Unavailable:
		return online.Errorf(online.KindNetwork, err, fmt.Sprintf(
			"cannot reach the Filestore API %s (%s): check the network connection", reading, msg))
	}
	return online.Errorf(online.KindOther, err, fmt.Sprintf("%s: %s: %s", reading, code, msg))
}

// reason returns the ErrorInfo reason of an API error, or "".
func reason(err error) string {
	if ae, ok := apierror.FromError(err); ok {
		return ae.Reason()
	}
	return ""
}
