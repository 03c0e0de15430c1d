package hostcore

import "github.com/attache/attache/hostcore/config"

// The host's list of servers is hostcore/config's. hostcore names its
// types again, as it names hostcore/fault's, so that its callers keep
// speaking hostcore's terms while the config is a package of its own.

// Config is config.Config: the host's list of servers and providers.
type Config = config.Config

// ServerConfig is config.ServerConfig: one server's entry.
type ServerConfig = config.ServerConfig

// Account is config.Account: one authorization context of a server.
type Account = config.Account

// OAuthClient is config.OAuthClient: a pre-registered OAuth client.
type OAuthClient = config.OAuthClient

// ImportSource is config.ImportSource: another host's config file.
type ImportSource = config.ImportSource

// Input is config.Input: a VS Code input a server's entry refers to.
type Input = config.Input

// DefaultAccount is the account of a server that names none.
const DefaultAccount = config.DefaultAccount

// MaxConfigBytes bounds the config file and each file it imports.
const MaxConfigBytes = config.MaxConfigBytes

// The values of ServerConfig.Transport (config's), and TransportStdio,
// which only ConnInfo says.
const (
	TransportAuto       = config.TransportAuto
	TransportStreamable = config.TransportStreamable
	TransportSSE        = config.TransportSSE
	TransportStdio      = config.TransportStdio
)

// The config's functions (see package config).
var (
	// DefaultConfigPath is config.DefaultConfigPath.
	DefaultConfigPath = config.DefaultConfigPath
	// LoadConfig is config.LoadConfig.
	LoadConfig = config.LoadConfig
	// LoadConfigContext is config.LoadConfigContext.
	LoadConfigContext = config.LoadConfigContext
	// ReadImport is config.ReadImport.
	ReadImport = config.ReadImport
	// ReadNamedFile is config.ReadNamedFile.
	ReadNamedFile = config.ReadNamedFile
	// ReadNamedStream is config.ReadNamedStream.
	ReadNamedStream = config.ReadNamedStream
)
